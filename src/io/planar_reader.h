// What the Y4M and raw YUV readers share: an input, a format, a frame counter, and
// reading or skipping one frame's planes.
#pragma once

#include <memory>
#include <optional>

#include "io/input_file.h"
#include "io/video_source.h"

namespace exactvq {

class PlanarReader : public VideoSource {
 public:
  const VideoFormat& format() const override { return format_; }
  const std::string& name() const override { return in_->name(); }
  std::optional<int64_t> frame_count() const override { return frame_count_; }
  size_t read_ahead(std::span<Picture> pics, std::span<const int64_t> ahead, int threads,
                    ThreadPool* pool = nullptr) override;
  void read_planes_only(int planes) override;

 protected:
  explicit PlanarReader(std::unique_ptr<InputFile> in) : in_(std::move(in)) {}

  // Reads (and checks the samples of) the planes of the next frame. Returns false
  // when no byte of it is left and `may_end` (a clean end between frames); throws
  // InputError on a partial frame or a sample out of range.
  bool read_planes(Picture& pic, bool may_end);
  // The same without reading the samples into memory or checking them.
  bool skip_planes(bool may_end);
  // The bytes before each frame's planes when the frame has no parameters
  // ("FRAME\n" in Y4M; nothing in raw YUV): read_ahead() expects exactly these.
  virtual std::string_view frame_marker() const = 0;

  std::unique_ptr<InputFile> in_;
  VideoFormat format_;
  std::optional<int64_t> frame_count_;
  int64_t frame_index_ = 0;  // frames read or skipped so far
  int planes_read_ = 3;      // planes filled; the rest not kept (read_planes_only)
};

}  // namespace exactvq
