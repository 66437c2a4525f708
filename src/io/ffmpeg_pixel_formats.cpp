#include "io/ffmpeg_pixel_formats.h"

#include <cstdint>

#include "io/ffmpeg_library.h"

namespace exactvq {

const char* pixel_format_name(int format) {
  const char* name = ffmpeg().av_get_pix_fmt_name(static_cast<AVPixelFormat>(format));
  return name ? name : "unknown";
}

std::optional<VideoFormat> video_format_of(int pixel_format, int width, int height) {
  const AVPixFmtDescriptor* d =
      ffmpeg().av_pix_fmt_desc_get(static_cast<AVPixelFormat>(pixel_format));
  if (!d) return std::nullopt;
  constexpr uint64_t kRefused = AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_PAL |
                                AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_HWACCEL |
                                AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_ALPHA |
                                AV_PIX_FMT_FLAG_BAYER | AV_PIX_FMT_FLAG_FLOAT;
  if (d->flags & kRefused) return std::nullopt;
  if (d->nb_components != 1 && d->nb_components != 3) return std::nullopt;
  const int depth = d->comp[0].depth;
  if (depth < 8 || depth > 16) return std::nullopt;
  const int bytes = depth > 8 ? 2 : 1;
  for (int i = 0; i < d->nb_components; ++i) {
    const AVComponentDescriptor& c = d->comp[i];
    if (c.plane != i || c.step != bytes || c.offset != 0 || c.shift != 0 || c.depth != depth)
      return std::nullopt;
  }
  VideoFormat f;
  f.width = width;
  f.height = height;
  f.bitdepth = depth;
  if (d->nb_components == 1) {
    f.chroma = ChromaFormat::kMono;
  } else if (d->log2_chroma_w == 1 && d->log2_chroma_h == 1) {
    f.chroma = ChromaFormat::k420;
  } else if (d->log2_chroma_w == 1 && d->log2_chroma_h == 0) {
    f.chroma = ChromaFormat::k422;
  } else if (d->log2_chroma_w == 0 && d->log2_chroma_h == 0) {
    f.chroma = ChromaFormat::k444;
  } else {
    return std::nullopt;
  }
  return f;
}

}  // namespace exactvq
