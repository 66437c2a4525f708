// FfmpegReader's segment-parallel decoding (segmented_decoding.h): an H.264 or HEVC
// file decoded in pieces on several decoder sessions at once.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <new>

#include "io/ffmpeg_reader_class.h"
#include "io/frame_data.h"

namespace exactvq {

class FfmpegReader::Session final : public SegmentDecoder {
 public:
  // `on_gpu`: NVDEC decodes (the reader's GPU), else the CPU.
  Session(const FfmpegReader& reader, bool on_gpu) : reader_(reader), on_gpu_(on_gpu) {
#ifdef EXACTVQ_HAVE_CUDA
    if (on_gpu) {
      own_import_ = std::make_unique<cuda::DecodedFrameImport>(reader.import_->ordinal());
      import_ = own_import_.get();
      hw_device_ = make_cuda_device(*import_);
    }
#endif
    decoder_ = reader.make_decoder(own_state_, hw_device_.get());
  }
  // The reader's own decoder, which read the first frame: its frames are
  // converted on the reader's import (whose stream the decoder copies on),
  // its log lines are the reader's state's (its frame threads' contexts
  // learn of another only with their next packet; the demuxer's lines go
  // elsewhere from now: start_segments).
  Session(FfmpegReader& reader, CodecContextPtr decoder)
      : reader_(reader),
        on_gpu_(reader.on_gpu_),
        state_(&reader.state_),
        decoder_(std::move(decoder)) {
#ifdef EXACTVQ_HAVE_CUDA
    import_ = reader.import_.get();
#endif
  }
  AVCodecContext* context() override { return decoder_.get(); }
  void take(AVFrame* frame, int64_t index, DecodedPicture& out) override {
    reader_.check_decoded_frame(frame, state_->errors, index);
#ifdef EXACTVQ_HAVE_CUDA
    if (on_gpu_) {
      out.device = reader_.pool_->take();
      import_->convert(reader_.decoded_frame(frame), reader_.format_, out.device.get(),
                       [&] { return fmt::format("{}: frame {}", reader_.name_, index); });
      return;
    }
#endif
    reader_.copy_frame(frame, out.picture);
    check_frame_samples(out.picture, reader_.name_, index);
  }
  void check_errors(int64_t index) override { reader_.check_error_lines(state_->errors, index); }
  std::string describe_error(int code) override {
    return exactvq::describe_error(code, state_->errors);
  }

 private:
  const FfmpegReader& reader_;
  const bool on_gpu_;
  ReaderState own_state_;             // outlives decoder_
  ReaderState* state_ = &own_state_;  // where decoder_ logs: own_state_ or the reader's
#ifdef EXACTVQ_HAVE_CUDA
  std::unique_ptr<cuda::DecodedFrameImport> own_import_;
  cuda::DecodedFrameImport* import_ = nullptr;  // own_import_ or the reader's
#endif
  std::unique_ptr<AVBufferRef, BufferUnref> hw_device_;
  CodecContextPtr decoder_;
};

int FfmpegReader::session_count(int requested, bool on_gpu, int width, int height) const {
  if (requested > 0) return std::min(requested, 16);
  if (!on_gpu) return 1;
  const char* env = std::getenv("EXACTVQ_HWDEC_SESSIONS");
  const int n = env ? std::atoi(env) : 0;
  if (n >= 1 && n <= 16) return n;
  // A short clip is decoded by fewer sessions: each further one costs a
  // decoder set up on the GPU before its first frame and repays it only over
  // enough frames. The H100's 240-frame 4K pairs (tools/device/nvdec_run.sh
  // fixedcost, the first frame's decoder kept as session 0, buffers pooled)
  // ran on 1 / 2 / 3 / 4 sessions in 1.75 / 1.33 / 1.27 / 1.38 s (H.264)
  // and 1.19 / 1.05 / 1.17 / 1.35 s (HEVC 10-bit); the 600-frame pairs in
  // 1.98 s (H.264, 4) against 3.59 s on one, 1.67 s (HEVC, 3) against 2.18 s.
  // So a session per 120 frames, counted in 4K frames (a decoder's time goes
  // with the samples), up to the default below.
  // The H200's best for a pair of long 4K files (docs/figures.md): 4 sessions
  // a file for H.264, 3 for HEVC (whose sessions each keep an engine busier).
  const bool hevc = codec_->id == AV_CODEC_ID_HEVC;
  const int most = hevc ? 3 : 4;
  const std::optional<double> frames = estimated_frames();
  if (frames && width > 0 && height > 0) {
    const double frames_4k = *frames * double(width) * double(height) / (3840.0 * 2160.0);
    return std::clamp(int(std::ceil(frames_4k / 120.0)), 1, most);
  }
  return most;
}

std::optional<double> FfmpegReader::estimated_frames() const {
  if (frame_count_) return double(*frame_count_);
  // Matroska gives no frame count: its duration at the stream's frame rate.
  const AVStream* st = format_context_->streams[stream_index_];
  AVRational rate = st->avg_frame_rate.num > 0 && st->avg_frame_rate.den > 0 ? st->avg_frame_rate
                                                                             : st->r_frame_rate;
  if (rate.num <= 0 || rate.den <= 0) return std::nullopt;
  double seconds = 0;
  if (st->duration > 0 && st->time_base.num > 0 && st->time_base.den > 0)
    seconds = double(st->duration) * st->time_base.num / st->time_base.den;
  else if (format_context_->duration > 0)
    seconds = double(format_context_->duration) / AV_TIME_BASE;
  if (seconds <= 0) return std::nullopt;
  return seconds * rate.num / rate.den;
}

int FfmpegReader::cpu_session_count(bool on_gpu) const {
  if (!on_gpu) return 0;
  const char* env = std::getenv("EXACTVQ_HWDEC_CPU_SESSIONS");
  const int n = env ? std::atoi(env) : 0;
  return n >= 0 && n <= 16 ? n : 0;
}

std::optional<NalCodec> FfmpegReader::nal_codec() const {
  if (codec_->id == AV_CODEC_ID_H264) return NalCodec::kH264;
  if (codec_->id == AV_CODEC_ID_HEVC) return NalCodec::kHevc;
  return std::nullopt;
}

void FfmpegReader::keep_for_replay(const AVPacket* packet) {
  PacketPtr copy = new_packet();
  if (ffmpeg().av_packet_ref(copy.get(), packet) < 0) throw std::bad_alloc();
  replay_.push_back(std::move(copy));
}

void FfmpegReader::start_segments(int sessions, int cpu_sessions) {
  pending_ = false;
  const AVCodecParameters* par = format_context_->streams[stream_index_]->codecpar;
  SegmentedDecodingSetup setup;
  setup.name = name_;
  setup.trace = trace_;
  setup.codec = *nal_codec();
  setup.framing =
      nal_framing_of(setup.codec, {par->extradata, size_t(std::max(par->extradata_size, 0))});
  setup.sessions = sessions + cpu_sessions;
  const size_t frame_bytes = Picture::span_bytes(format_, format_.plane_count());
  // Frames decoded ahead of the reads: pictures of up to 1.5 GiB in all (on the
  // GPU 4 GiB, or an eighth of its free memory where less), 4 to 64 a session;
  // a piece a slower session holds up is decoded past by that much.
  size_t budget = size_t(3) << 29;
#ifdef EXACTVQ_HAVE_CUDA
  if (on_gpu_) budget = std::min(size_t(4) << 30, import_->free_memory() / 8);
#endif
  setup.frames_ahead =
      int(std::clamp<size_t>(budget / (size_t(setup.sessions) * frame_bytes), 4, 64));
#ifdef EXACTVQ_HAVE_CUDA
  // The pictures held at once: each session's frames ahead and the one it is
  // converting, and the one the reads are copying out.
  if (on_gpu_)
    pool_ = std::make_unique<cuda::DevicePicturePool>(
        import_->ordinal(), frame_bytes,
        size_t(setup.sessions) * size_t(setup.frames_ahead + 1) + 1);
#endif
#ifdef EXACTVQ_HAVE_CUDA
  // The reads' copies on a stream of their own, beside session 0's
  // conversions on the reader's.
  if (on_gpu_) reads_import_ = std::make_unique<cuda::DecodedFrameImport>(import_->ordinal());
#endif
  // This reader's decoder goes on as session 0 (its first frame in hand, the
  // packets it took stamped with their places: decode_next).
  setup.sent = int64_t(replay_.size());
  setup.first = std::move(frame_);
  frame_.reset(ffmpeg().av_frame_alloc());
  if (!frame_) throw std::bad_alloc();
  setup.adopted = std::make_unique<Session>(*this, std::move(decoder_));
  demux_log_ = &demux_state_;
  format_context_->opaque = demux_log_;
  setup.read_packet = [this](AVPacket* packet) { return read_stream_packet(packet); };
  setup.open_session = [this, sessions](int index) -> std::unique_ptr<SegmentDecoder> {
    return std::make_unique<Session>(*this, on_gpu_ && index < sessions);
  };
  segments_ = std::make_unique<SegmentedDecoding>(std::move(setup));
}

bool FfmpegReader::read_stream_packet(AVPacket* packet) {
  if (!replay_.empty()) {
    ffmpeg().av_packet_move_ref(packet, replay_.front().get());
    replay_.pop_front();
    ++packets_read_;
    return true;
  }
  const auto where = [&] { return fmt::format("picture {} in decoding order", packets_read_); };
  const bool more = demux_packet(packet, where);
  const std::string line = demux_log_->errors.take();
  if (!line.empty())
    throw InputError(
        fmt::format("{}: {}: the file is damaged or truncated (FFmpeg: {})", name_, where(), line));
  if (more) ++packets_read_;
  return more;
}

bool FfmpegReader::read_segment_frame(Picture& pic) {
  DecodedPicture d;
  if (!segments_->next(d)) return false;
#ifdef EXACTVQ_HAVE_CUDA
  if (d.device)
    reads_import_->import_converted(d.device.get(), format_, pic, device_pictures_);
  else if (on_gpu_)
    reads_import_->import_host(std::move(d.picture), pic, device_pictures_);
  else
#endif
    pic = std::move(d.picture);
  ++index_;
  return true;
}

}  // namespace exactvq
