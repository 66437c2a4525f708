// FfmpegReader's segment-parallel decoding (segmented_decoding.h): an H.264 or HEVC
// file decoded in pieces on several decoder sessions at once.
#include <algorithm>
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
      import_ = std::make_unique<cuda::DecodedFrameImport>(reader.import_->ordinal());
      hw_device_ = make_cuda_device(*import_);
    }
#endif
    decoder_ = reader.make_decoder(state_, hw_device_.get());
  }
  AVCodecContext* context() override { return decoder_.get(); }
  void take(AVFrame* frame, int64_t index, DecodedPicture& out) override {
    reader_.check_decoded_frame(frame, state_.errors, index);
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
  void check_errors(int64_t index) override { reader_.check_error_lines(state_.errors, index); }
  std::string describe_error(int code) override {
    return exactvq::describe_error(code, state_.errors);
  }

 private:
  const FfmpegReader& reader_;
  const bool on_gpu_;
  ReaderState state_;  // outlives decoder_
#ifdef EXACTVQ_HAVE_CUDA
  std::unique_ptr<cuda::DecodedFrameImport> import_;
#endif
  std::unique_ptr<AVBufferRef, BufferUnref> hw_device_;
  CodecContextPtr decoder_;
};

int FfmpegReader::session_count(int requested) const {
  if (requested > 0) return std::min(requested, 16);
  if (!on_gpu_) return 1;
  const char* env = std::getenv("EXACTVQ_HWDEC_SESSIONS");
  const int n = env ? std::atoi(env) : 0;
  if (n >= 1 && n <= 16) return n;
  // The H200's best for a pair of 4K files (docs/figures.md): 4 sessions
  // a file for H.264, 3 for HEVC (whose sessions each keep an engine busier).
  return codec_->id == AV_CODEC_ID_H264 ? 4 : 3;
}

int FfmpegReader::cpu_session_count() const {
  if (!on_gpu_) return 0;
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
  ffmpeg().av_frame_unref(frame_.get());
  pending_ = false;
  decoder_.reset();
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
  if (on_gpu_) pool_ = std::make_unique<cuda::DevicePicturePool>(import_->ordinal(), frame_bytes);
#endif
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
  // No decoder of this reader's logs here any more: a line is the demuxer's.
  const std::string line = state_.errors.take();
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
    import_->import_converted(d.device.get(), format_, pic, device_pictures_);
  else if (on_gpu_)
    import_->import_host(std::move(d.picture), pic, device_pictures_);
  else
#endif
    pic = std::move(d.picture);
  ++index_;
  return true;
}

}  // namespace exactvq
