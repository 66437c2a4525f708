// Raw planar YUV reader: frames of format.frame_bytes() bytes, Y then Cb then Cr.
#include <fmt/format.h>

#include "core/error.h"
#include "io/frame_data.h"
#include "io/readers.h"

namespace exactvq {

namespace {

class RawYuvReader final : public VideoSource {
 public:
  RawYuvReader(std::unique_ptr<InputFile> in, const VideoFormat& format)
      : in_(std::move(in)), format_(format) {
    validate_format(format_, in_->name());
    if (in_->peek(1).empty()) throw InputError(fmt::format("{} is empty", name()));
    if (const auto size = in_->size()) {
      const uint64_t fb = format_.frame_bytes();
      frame_count_ = int64_t((*size + fb - 1) / fb);  // a partial last frame counts (and fails)
    }
  }

  const VideoFormat& format() const override { return format_; }
  const std::string& name() const override { return in_->name(); }
  std::optional<int64_t> frame_count() const override { return frame_count_; }

  bool read_frame(Picture& pic) override {
    const size_t got = read_frame_planes(*in_, format_, pic);
    if (got == 0) return false;
    if (got < format_.frame_bytes()) throw truncated(got);
    check_frame_samples(pic, name(), frame_index_);
    ++frame_index_;
    return true;
  }

  bool skip_frame() override {
    const uint64_t got = in_->skip(format_.frame_bytes());
    if (got == 0) return false;
    if (got < format_.frame_bytes()) throw truncated(got);
    ++frame_index_;
    return true;
  }

 private:
  InputError truncated(uint64_t got) const {
    return truncated_frame(name(), frame_index_, got, format_);
  }

  std::unique_ptr<InputFile> in_;
  VideoFormat format_;
  std::optional<int64_t> frame_count_;
  int64_t frame_index_ = 0;
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
