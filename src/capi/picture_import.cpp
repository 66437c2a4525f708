#include "capi/picture_import.h"

#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "capi/api_errors.h"
#include "core/error.h"

namespace exactvq::capi {

namespace {

// The first sample above `max` in a plane of uint16_t samples, as an error.
void check_plane_samples(const PlaneView& v, int plane, uint32_t max, int bitdepth,
                         const std::string& what) {
  for (int y = 0; y < v.height; ++y) {
    const uint16_t* row = v.row<uint16_t>(y);
    for (int x = 0; x < v.width; ++x)
      if (row[x] > max)
        throw InputError(
            fmt::format("{}: plane {}, x={}, y={}: sample {} exceeds the {}-bit maximum {}", what,
                        plane_name(plane), x, y, row[x], bitdepth, max));
  }
}

}  // namespace

ChromaFormat chroma_format(int value, const std::string& what) {
  switch (value) {
    case EXACTVQ_CHROMA_420:
      return ChromaFormat::k420;
    case EXACTVQ_CHROMA_422:
      return ChromaFormat::k422;
    case EXACTVQ_CHROMA_444:
      return ChromaFormat::k444;
    case EXACTVQ_CHROMA_MONO:
      return ChromaFormat::kMono;
  }
  throw ArgumentError(fmt::format("{}: unknown chroma value {}", what, value));
}

VideoFormat picture_format(const exactvq_picture& picture, const std::string& what) {
  VideoFormat f;
  f.chroma = chroma_format(int(picture.chroma), what);
  f.width = picture.width;
  f.height = picture.height;
  f.bitdepth = picture.bitdepth;
  validate_format(f, what);
  return f;
}

void import_picture(const exactvq_picture& picture, const VideoFormat& format,
                    const std::string& what, Picture& out) {
  if (!(out.format == format)) out.allocate(format);
  for (int p = 0; p < format.plane_count(); ++p) {
    const auto* src = static_cast<const uint8_t*>(picture.data[p]);
    const ptrdiff_t stride = picture.stride[p];
    const size_t row_bytes = size_t(format.plane_width(p)) * size_t(format.bytes_per_sample());
    if (!src)
      throw ArgumentError(fmt::format("{}: plane {} is a null pointer", what, plane_name(p)));
    if (size_t(std::llabs(stride)) < row_bytes)
      throw ArgumentError(fmt::format("{}: plane {} stride {} is shorter than its row of {} bytes",
                                      what, plane_name(p), stride, row_bytes));
    uint8_t* dst = out.plane_data(p);
    for (int y = 0; y < format.plane_height(p); ++y)
      std::memcpy(dst + size_t(y) * row_bytes, src + ptrdiff_t(y) * stride, row_bytes);
    // At 16 bits every value is in range; at 8 bits the sample type bounds it.
    if (format.bitdepth > 8 && format.bitdepth < 16)
      check_plane_samples(out.plane(p), p, format.max_sample(), format.bitdepth, what);
  }
}

}  // namespace exactvq::capi
