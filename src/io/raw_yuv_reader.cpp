// Raw planar YUV reader: frames of format.frame_bytes() bytes, Y then Cb then Cr.
#include <fmt/format.h>

#include "core/error.h"
#include "io/planar_reader.h"
#include "io/readers.h"

namespace exactvq {

namespace {

class RawYuvReader final : public PlanarReader {
 public:
  RawYuvReader(std::unique_ptr<InputFile> in, const VideoFormat& format)
      : PlanarReader(std::move(in)) {
    format_ = format;
    validate_format(format_, name());
    if (in_->peek(1).empty()) throw InputError(fmt::format("{} is empty", name()));
    if (const auto size = in_->size()) {
      const uint64_t fb = format_.frame_bytes();
      frame_count_ = int64_t((*size + fb - 1) / fb);  // a partial last frame counts (and fails)
    }
  }

  // Frames follow each other with no marker: no byte left is a clean end.
  bool read_frame(Picture& pic) override { return read_planes(pic, /*may_end=*/true); }
  bool skip_frame() override { return skip_planes(/*may_end=*/true); }
  std::string_view frame_marker() const override { return {}; }
};

}  // namespace

std::unique_ptr<VideoSource> make_raw_yuv_reader(std::unique_ptr<InputFile> in,
                                                 const VideoFormat& format) {
  return std::make_unique<RawYuvReader>(std::move(in), format);
}

std::unique_ptr<VideoSource> open_raw_yuv(const std::string& path, const VideoFormat& format) {
  // Validate before opening so that a bad format is reported even for an unreadable path.
  validate_format(format, path == "-" ? "standard input" : path);
  return make_raw_yuv_reader(std::make_unique<InputFile>(path), format);
}

}  // namespace exactvq
