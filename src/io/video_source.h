// A stream of frames from a file or standard input.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/picture.h"

namespace exactvq {

class VideoSource {
 public:
  virtual ~VideoSource() = default;

  virtual const VideoFormat& format() const = 0;
  // The path as the user gave it ("-" is shown as "standard input"); used in messages.
  virtual const std::string& name() const = 0;

  // Reads the next frame into `pic` (re-allocated only when its format differs).
  // Returns false at a clean end of stream. Throws InputError on a truncated
  // frame, a malformed FRAME header, or a sample above 2^bitdepth - 1 (the message
  // names the file, frame index, plane, x and y).
  virtual bool read_frame(Picture& pic) = 0;

  // Skips the next frame without validating its samples; false at a clean end.
  virtual bool skip_frame() = 0;

  // Number of frames when it can be known without reading (regular files).
  virtual std::optional<int64_t> frame_count() const { return std::nullopt; }
};

// Raw-YUV parameters from the command line (-w -h -p -b).
struct RawOptions {
  std::optional<int> width, height, bitdepth;
  std::optional<ChromaFormat> chroma;
  bool any() const { return width || height || bitdepth || chroma; }
  bool complete() const { return width && height && bitdepth && chroma; }
};

// Opens a Y4M stream ("-" reads standard input).
std::unique_ptr<VideoSource> open_y4m(const std::string& path);

// Opens raw planar YUV: little-endian samples above 8 bits, chroma ceil(W/2) x ceil(H/2).
std::unique_ptr<VideoSource> open_raw_yuv(const std::string& path, const VideoFormat& format);

// Chooses the reader: a path ending in .y4m, or content starting with the Y4M
// signature, is Y4M; otherwise complete raw options are required.
std::unique_ptr<VideoSource> open_video(const std::string& path, const RawOptions& raw);

}  // namespace exactvq
