#include "capi/picture_import.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "capi/api_errors.h"
#include "core/error.h"
#include "io/sample_range.h"

namespace exactvq::capi {

namespace {

// Throws for the first of `width` samples of row y above the depth's maximum.
void check_row(const uint16_t* row, int width, int y, int plane, const VideoFormat& format,
               const std::string& what) {
  const uint32_t max = format.max_sample();
  const size_t x = first_above(row, size_t(width), uint16_t(max));
  if (x < size_t(width))
    throw InputError(
        fmt::format("{}: plane {}, x={}, y={}: sample {} exceeds the {}-bit maximum {}", what,
                    plane_name(plane), x, y, row[x], format.bitdepth, max));
}

// Whether the format's samples can exceed its maximum (9 to 15 bits: 8 bits are
// bounded by their type, 16 bits have no value above).
bool range_checked(const VideoFormat& format) {
  return format.bitdepth > 8 && format.bitdepth < 16;
}

// A plane of the caller's picture: its first row and stride, checked.
struct SourcePlane {
  const uint8_t* data;
  ptrdiff_t stride;
  size_t row_bytes;
};

SourcePlane source_plane(const exactvq_picture& picture, const VideoFormat& format, int p,
                         const std::string& what) {
  const auto* src = static_cast<const uint8_t*>(picture.data[p]);
  const ptrdiff_t stride = picture.stride[p];
  const size_t row_bytes = size_t(format.plane_width(p)) * size_t(format.bytes_per_sample());
  if (!src) throw ArgumentError(fmt::format("{}: plane {} is a null pointer", what, plane_name(p)));
  if (size_t(std::llabs(stride)) < row_bytes)
    throw ArgumentError(fmt::format("{}: plane {} stride {} is shorter than its row of {} bytes",
                                    what, plane_name(p), stride, row_bytes));
  return {src, stride, row_bytes};
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
                    const std::string& what, Picture& out, bool check_samples) {
  if (!(out.format == format)) out.allocate(format);
  for (int p = 0; p < format.plane_count(); ++p) {
    const SourcePlane src = source_plane(picture, format, p, what);
    uint8_t* dst = out.plane_data(p);
    for (int y = 0; y < format.plane_height(p); ++y)
      std::memcpy(dst + size_t(y) * src.row_bytes, src.data + ptrdiff_t(y) * src.stride,
                  src.row_bytes);
    if (check_samples && range_checked(format)) {
      const PlaneView v = out.plane(p);
      for (int y = 0; y < v.height; ++y) check_row(v.row<uint16_t>(y), v.width, y, p, format, what);
    }
  }
}

void check_picture_samples(const exactvq_picture& picture, const VideoFormat& format,
                           const std::string& what) {
  if (!range_checked(format)) return;
  std::vector<uint16_t> scratch;  // a row that is not 2-byte aligned, copied to be read
  for (int p = 0; p < format.plane_count(); ++p) {
    const SourcePlane src = source_plane(picture, format, p, what);
    const int width = format.plane_width(p);
    for (int y = 0; y < format.plane_height(p); ++y) {
      const uint8_t* row = src.data + ptrdiff_t(y) * src.stride;
      if (reinterpret_cast<uintptr_t>(row) % alignof(uint16_t) != 0) {
        scratch.resize(size_t(width));
        std::memcpy(scratch.data(), row, src.row_bytes);
        row = reinterpret_cast<const uint8_t*>(scratch.data());
      }
      check_row(reinterpret_cast<const uint16_t*>(row), width, y, p, format, what);
    }
  }
}

}  // namespace exactvq::capi
