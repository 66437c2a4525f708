// FfmpegReader's decoder: opened on the stream, run frame by frame, every frame
// checked for damage and for the first frame's format.
#include <cstdlib>
#include <new>

#include "io/ffmpeg_cuda_decoding.h"
#include "io/ffmpeg_pixel_formats.h"
#include "io/ffmpeg_reader_class.h"

namespace exactvq {

CodecContextPtr FfmpegReader::make_decoder(ReaderState& state, AVBufferRef* hw_device) const {
  const AVStream* st = format_context_->streams[stream_index_];
  CodecContextPtr decoder(ffmpeg().avcodec_alloc_context3(codec_));
  if (!decoder) throw std::bad_alloc();
  int r = ffmpeg().avcodec_parameters_to_context(decoder.get(), st->codecpar);
  if (r >= 0) {
    decoder->opaque = &state;
    decoder->pkt_timebase = st->time_base;
    decoder->thread_count = 0;  // as many as the machine has
    decoder->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
    if (hw_device) {
      decoder->hw_device_ctx = ffmpeg().av_buffer_ref(hw_device);
      if (!decoder->hw_device_ctx) throw std::bad_alloc();
      decoder->get_format = choose_pixel_format;
      // The CPU only parses: a few frame threads keep several frames in flight
      // on the GPU's decoder, each thread's frames adding to its surfaces.
      decoder->thread_count = hw_threads();
      decoder->thread_type = FF_THREAD_FRAME;
    }
    // Damage is an error, never a concealed picture scored as if it were the encode.
    decoder->err_recognition = AV_EF_CRCCHECK | AV_EF_BITSTREAM | AV_EF_BUFFER | AV_EF_EXPLODE;
    // Crop exactly, even at unaligned left or top offsets.
    decoder->flags |= AV_CODEC_FLAG_UNALIGNED;
    r = ffmpeg().avcodec_open2(decoder.get(), codec_, nullptr);
  }
  if (r < 0 && hw_device)
    throw HwUnavailable(fmt::format("the {} decoder does not open on the GPU: {}", codec_->name,
                                    describe_error(r, state.errors)));
  if (r < 0)
    throw InputError(fmt::format("{}: cannot open the {} decoder: {}", name_, codec_->name,
                                 describe_error(r, state.errors)));
  return decoder;
}

int FfmpegReader::hw_threads() {
  const char* env = std::getenv("EXACTVQ_HWDEC_THREADS");
  const int n = env ? std::atoi(env) : 0;
  return n >= 1 && n <= 16 ? n : 2;
}

bool FfmpegReader::decode_first(bool on_gpu) {
  try {
    return decode_next();
  } catch (const InputError& e) {
    if (!on_gpu || !state_.cuda_refused) throw;
    throw HwUnavailable(
        fmt::format("the GPU's decoder does not take this {} stream{}", codec_->name,
                    state_.refusal.empty() ? "" : " (FFmpeg: " + state_.refusal + ")"));
  }
}

void FfmpegReader::fail(const char* what, int code) {
  throw InputError(fmt::format("{}: frame {}: {}: {}", name_, index_, what,
                               describe_error(code, state_.errors)));
}

bool FfmpegReader::decode_next() {
  for (;;) {
    int r = ffmpeg().avcodec_receive_frame(decoder_.get(), frame_.get());
    if (r == 0) {
      check_decoded_frame();
      return true;
    }
    if (r == AVERROR_EOF) {
      check_error_lines();
      return false;
    }
    if (r != AVERROR(EAGAIN) || draining_) fail("cannot decode", r);
    if (!demux_packet(packet_.get(), [&] { return fmt::format("frame {}", index_); })) {
      draining_ = true;
      r = ffmpeg().avcodec_send_packet(decoder_.get(), nullptr);
      if (r < 0) fail("cannot decode", r);
      continue;
    }
    if (stamping_) packet_->pts = packet_->dts = int64_t(replay_.size());
    if (recording_) keep_for_replay(packet_.get());
    r = ffmpeg().avcodec_send_packet(decoder_.get(), packet_.get());
    ffmpeg().av_packet_unref(packet_.get());
    if (r < 0) fail("cannot decode", r);
  }
}

void FfmpegReader::check_error_lines(ErrorLines& errors, int64_t index) const {
  const std::string line = errors.take();
  if (!line.empty())
    throw InputError(fmt::format("{}: frame {}: the file is damaged or truncated (FFmpeg: {})",
                                 name_, index, line));
}

void FfmpegReader::check_decoded_frame(const AVFrame* frame, ErrorLines& errors,
                                       int64_t index) const {
  check_error_lines(errors, index);
  if ((frame->flags & AV_FRAME_FLAG_CORRUPT) || frame->decode_error_flags != 0)
    throw InputError(fmt::format(
        "{}: frame {}: the decoder reports damaged data (the file is corrupt or truncated)", name_,
        index));
  if (pixel_format_ < 0) return;  // the first frame sets the format
  const bool gpu_frame = frame->format == AV_PIX_FMT_CUDA;
  if (on_gpu_ && !gpu_frame) {
    // a CPU session's frame beside the GPU's: the same pictures, in planes
    const auto f = video_format_of(frame->format, frame->width, frame->height);
    if (f && *f == format_) return;
    throw InputError(
        fmt::format("{}: frame {} is {}x{} {} (decoded on the CPU), but the stream began {} "
                    "(exactvq neither scales nor "
                    "converts)",
                    name_, index, frame->width, frame->height, pixel_format_name(frame->format),
                    format_.describe()));
  }
  const int format = gpu_frame ? surface_format(frame) : frame->format;
  const int expected = on_gpu_ ? sw_format_ : pixel_format_;
  if (frame->format != pixel_format_ || format != expected ||
      visible_width(frame) != format_.width || visible_height(frame) != format_.height)
    throw InputError(fmt::format(
        "{}: frame {} is {}x{} {}{}, but the stream began {}x{} {}{} (exactvq neither scales nor "
        "converts)",
        name_, index, visible_width(frame), visible_height(frame), pixel_format_name(format),
        gpu_frame ? " on the GPU" : "", format_.width, format_.height, pixel_format_name(expected),
        on_gpu_ ? " on the GPU" : ""));
}

}  // namespace exactvq
