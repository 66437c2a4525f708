// A stream of frames from a file or standard input.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "core/picture.h"
#include "io/decode_options.h"

namespace exactvq {

class ThreadPool;

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

  // Reads several frames at once on up to `threads` threads (or on `pool`'s
  // threads, kept between calls, when given) where the input allows it (a regular file whose frames
  // have a fixed size): pics[k] gets the frame ahead[k] frames after the next one (ahead[0] >= 0,
  // increasing; the frames between are skipped). Returns m, how many leading frames of the list
  // were read and checked; the source is then just past frame ahead[m - 1], as
  // if they had been read and the others skipped one by one (untouched when m is
  // 0). Anything unusual (a frame header with parameters, a missing marker, the
  // end of the input, a bad sample, a read error) stops it before that frame, so
  // reading on frame by frame gives exactly the outcome of reading it all so.
  virtual size_t read_ahead(std::span<Picture> pics, std::span<const int64_t> ahead, int threads,
                            ThreadPool* pool = nullptr) {
    (void)pics;
    (void)ahead;
    (void)threads;
    (void)pool;
    return 0;
  }

  // From now on, fill only planes 0 .. planes-1 of each picture read; the others
  // are left as they were in the picture. They are still checked where they could
  // hold a sample out of range (9..15 bits: read, checked, not stored), skipped in
  // the input where they cannot (8 and 16 bits). For runs whose features read luma
  // only (Feature::planes_read). A source that cannot skip reads every plane.
  virtual void read_planes_only(int planes) { (void)planes; }

  // Number of frames when it can be known without reading (regular files).
  virtual std::optional<int64_t> frame_count() const { return std::nullopt; }

  // The CUDA device whose decoder (NVDEC) decodes this input, or -1 where the
  // CPU does (or nothing needs decoding).
  virtual int cuda_decoder_device() const { return -1; }
  // With `on` (and a CUDA decoder), read_frame leaves pictures in that device's
  // memory (Picture::in_device_memory, valid until the next read into the same
  // Picture object, or until this source is destroyed); off (the default),
  // pictures are in host memory.
  virtual void set_device_pictures(bool on) { (void)on; }
  // Pieces of the stream decoded apart so far (segment-parallel decoding,
  // DecodeOptions::sessions); 0 where one decoder decodes it all.
  virtual int64_t decoding_segments() const { return 0; }
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
// signature, is Y4M; otherwise complete raw options are required, or, with
// FFmpeg compiled in, FFmpeg decodes it as `decode` says.
std::unique_ptr<VideoSource> open_video(const std::string& path, const RawOptions& raw,
                                        const DecodeOptions& decode = {});

}  // namespace exactvq
