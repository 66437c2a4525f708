// FfmpegReader: a video demuxed and decoded with libavformat / libavcodec, frames
// copied as they are (or left on the GPU that decoded them). Its members are
// defined by what they do: ffmpeg_reader_class.cpp (the container, the frames
// handed out), ffmpeg_decoder.cpp (the decoder and its checks),
// ffmpeg_cuda_decoding.cpp (the GPU's decoder and its frames),
// ffmpeg_reader_segments.cpp (segment-parallel decoding).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "core/error.h"
#include "io/avio_input.h"
#include "io/ffmpeg_library.h"
#include "io/ffmpeg_log.h"
#include "io/ffmpeg_reader_state.h"
#include "io/input_file.h"
#include "io/segmented_decoding.h"
#include "io/video_source.h"
#ifdef EXACTVQ_HAVE_CUDA
#include "backends/cuda/decoded_frames.h"
#endif

namespace exactvq {

// The hardware decoder cannot take this input (kAuto falls back to the CPU).
struct HwUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class FfmpegReader final : public VideoSource {
 public:
  // Reads `path`, or `pipe` (named `path` in messages) when it is given.
  // With `cuda_device` >= 0, the GPU decodes, or the constructor throws
  // HwUnavailable saying why it cannot.
  // `sessions` (DecodeOptions::sessions) above 1 decodes an H.264 or HEVC file
  // in pieces on that many decoder sessions at once.
  FfmpegReader(const std::string& path, std::unique_ptr<InputFile> pipe, int cuda_device = -1,
               int sessions = 0);

  const VideoFormat& format() const override { return format_; }
  const std::string& name() const override { return name_; }
  std::optional<int64_t> frame_count() const override { return frame_count_; }
#ifdef EXACTVQ_HAVE_CUDA
  int cuda_decoder_device() const override { return on_gpu_ ? import_->ordinal() : -1; }
#endif
  void set_device_pictures(bool on) override { device_pictures_ = on; }
  int64_t decoding_segments() const override {
    return segments_ ? segments_->segments_started() : 0;
  }

  bool read_frame(Picture& pic) override;
  bool skip_frame() override;

 private:
  void open_stream(const std::string& path);

  // Marks "<input> <stage>" in the start-up trace (core/startup_trace.h) where
  // this reader was opened under an input name.
  void mark(const char* stage) const;

  void open_decoder() { decoder_ = make_decoder(state_, hw_device_.get()); }

  // A decoder of the stream as this reader opens it, its log lines to `state`,
  // on the GPU where `hw_device` is given.
  CodecContextPtr make_decoder(ReaderState& state, AVBufferRef* hw_device) const;

  // Frame threads of a GPU decoder: EXACTVQ_HWDEC_THREADS, else 2.
  static int hw_threads();

  int visible_width() const { return visible_width(frame_.get()); }
  int visible_height() const { return visible_height(frame_.get()); }
  int visible_width(const AVFrame* f) const { return f->width - int(on_gpu_ ? f->crop_left : 0); }
  int visible_height(const AVFrame* f) const { return f->height - int(on_gpu_ ? f->crop_top : 0); }

  // The first frame; a decoder that fails on it after the GPU's setup failed
  // (FFmpeg 5.1's AV1 decoder has no CPU path) could not use the GPU.
  bool decode_first(bool on_gpu);

#ifdef EXACTVQ_HAVE_CUDA
  // A CUDA device context on the device's primary context (the one the CUDA
  // runtime, hence the scoring, uses; given, not made by FFmpeg, which would
  // insist on its own scheduling flags), its stream our import's: the
  // decoder's post-processing and our conversion are ordered on it.
  void setup_cuda_decoding(int ordinal);

  // FFmpeg's CUDA device on the primary context of `import`'s device, with its
  // stream.
  static std::unique_ptr<AVBufferRef, BufferUnref> make_cuda_device(
      cuda::DecodedFrameImport& import);

  // The first frame came from the GPU, in a layout we convert; else why not.
  void check_cuda_frame();

  int surface_format(const AVFrame* frame) const;

  // The planes of a frame of the GPU's decoder, as the conversion reads them.
  cuda::DecodedFrame decoded_frame(const AVFrame* frame) const;

  void import_frame(Picture& pic);
#else
  [[noreturn]] void setup_cuda_decoding(int);
  void check_cuda_frame() {}
  int surface_format(const AVFrame*) const { return -1; }
  void import_frame(Picture&) {}
#endif

  bool next_frame();

  [[noreturn]] void fail(const char* what, int code);

  // Decodes the next frame into frame_; false at the end of the stream.
  bool decode_next();

  // The stream's next packet into `packet`; false at the end of the input.
  // Throws InputError naming the file and where() on a read error or an
  // incomplete packet.
  template <typename Where>
  bool demux_packet(AVPacket* packet, const Where& where) {
    for (;;) {
      int r = ffmpeg().av_read_frame(format_context_.get(), packet);
      if (r == AVERROR_EOF) {
        const AVIOContext* io = format_context_->pb;
        if (!io || io->error >= 0) return false;
        r = io->error;  // the end came from a read error
      }
      if (r < 0)
        throw InputError(fmt::format("{}: {}: cannot read: {}", name_, where(),
                                     describe_error(r, demux_log_->errors)));
      if (packet->stream_index != stream_index_) {
        ffmpeg().av_packet_unref(packet);
        continue;
      }
      if (packet->flags & AV_PKT_FLAG_CORRUPT)
        throw InputError(fmt::format(
            "{}: {}: the file is damaged or truncated (an incomplete packet)", name_, where()));
      return true;
    }
  }

  // An error line from our demuxer or decoder means damage, even when the decoder
  // concealed it and returned a picture.
  void check_error_lines() { check_error_lines(state_.errors, index_); }
  void check_error_lines(ErrorLines& errors, int64_t index) const;

  void check_decoded_frame() { check_decoded_frame(frame_.get(), state_.errors, index_); }
  // `frame`, the stream's frame `index`, is undamaged and of the first frame's format.
  void check_decoded_frame(const AVFrame* frame, ErrorLines& errors, int64_t index) const;

  void copy_frame(Picture& pic) const { copy_frame(frame_.get(), pic); }
  void copy_frame(const AVFrame* frame, Picture& pic) const;

  // Segment-parallel decoding (segmented_decoding.h), in ffmpeg_reader_segments.cpp.

  // Decoder sessions for this input of `width` x `height` pictures (0 where
  // not known), decoded on the GPU or not: `requested`, else the default of
  // DecodeOptions::sessions.
  int session_count(int requested, bool on_gpu, int width, int height) const;

  // The stream's frames: the container's count, else its duration at its frame
  // rate; nullopt where neither is known.
  std::optional<double> estimated_frames() const;

  // CPU decoder sessions beside a GPU's (they take pieces too; their pictures
  // are uploaded): EXACTVQ_HWDEC_CPU_SESSIONS, else none. On an H200 one a file
  // adds 6-10% to an H.264 pair's ssim + psnr rate and takes 15% from VMAF's
  // (docs/figures.md).
  int cpu_session_count(bool on_gpu) const;

  std::optional<NalCodec> nal_codec() const;

  void keep_for_replay(const AVPacket* packet);

  // From the first packet again (those the first frame took, then the rest),
  // on `sessions` decoder sessions, the first of them the decoder that read
  // the first frame (segmented_decoding.h, SegmentedDecodingSetup::adopted).
  void start_segments(int sessions, int cpu_sessions);

  // The stream's next packet for the sessions (the first frame's again first).
  bool read_stream_packet(AVPacket* packet);

  bool read_segment_frame(Picture& pic);

  // One decoder session of segment-parallel decoding: its own decoder (and on
  // the GPU its own stream), frames checked as the reader checks its own.
  class Session;

  std::string name_;
  std::string trace_;  // the input's name in the start-up trace, or ""
  VideoFormat format_;
  std::optional<int64_t> frame_count_;
  ReaderState state_;  // outlives the contexts below, which point at it
  // The demuxer's log once segment-parallel decoding starts (state_ is then
  // session 0's decoder's), and where the demuxer logs now.
  ReaderState demux_state_;
  ReaderState* demux_log_ = &state_;
#ifdef EXACTVQ_HAVE_CUDA
  std::unique_ptr<cuda::DecodedFrameImport> import_;  // its stream outlives the decoder's use of it
#endif
  std::unique_ptr<AVBufferRef, BufferUnref> hw_device_;
  std::unique_ptr<InputFile> pipe_;  // with io_, the input of a pipe
  std::unique_ptr<AVIOContext, IoContextFreer> io_;
  std::unique_ptr<AVFormatContext, FormatContextCloser> format_context_;
  CodecContextPtr decoder_;
  PacketPtr packet_;
  FramePtr frame_;
  const AVCodec* codec_ = nullptr;
  int stream_index_ = -1;
  int pixel_format_ = -1;  // set from the first frame
  int64_t index_ = 0;      // frames read or skipped so far
  bool pending_ = false;   // frame_ holds a decoded frame not yet handed out
  bool draining_ = false;
  bool on_gpu_ = false;           // frames are the GPU's (AV_PIX_FMT_CUDA)
  int sw_format_ = -1;            // their layout in device memory (NV12, P010, ...)
  bool device_pictures_ = false;  // read_frame leaves them in device memory
  bool recording_ = false;        // the packets the first frame takes are kept
  bool stamping_ = false;         // and stamped with their places (for segment-parallel decoding)
  std::deque<PacketPtr> replay_;
  int64_t packets_read_ = 0;  // by the sessions
#ifdef EXACTVQ_HAVE_CUDA
  std::unique_ptr<cuda::DevicePicturePool> pool_;
  std::unique_ptr<cuda::DecodedFrameImport> reads_import_;  // segment-parallel decoding's reads
#endif
  std::unique_ptr<SegmentedDecoding> segments_;  // last: its sessions use all above
};

}  // namespace exactvq
