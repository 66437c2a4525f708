// Demuxing and decoding with libavformat / libavcodec, frames copied as they are.
#include "io/ffmpeg_reader.h"

#include "io/ffmpeg_library.h"
#ifdef EXACTVQ_HAVE_CUDA
extern "C" {
#include <libavutil/hwcontext_cuda.h>
}
#include "backends/cuda/decoded_frames.h"
#endif

#include <fmt/format.h>

#include <algorithm>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <utility>

#include "core/error.h"
#include "io/frame_data.h"
#include "io/segmented_decoding.h"

namespace exactvq {

namespace {

// The error lines FFmpeg logs for one reader's demuxer and decoder (frame threads
// included: they share the decoder's `opaque`). They say more than its error codes
// ("slice CRC mismatch", "Read error at pos. ...") and reveal damage that a decoder
// conceals instead of failing; they are quoted in our messages, never printed.
struct ErrorLines {
  std::mutex mutex;
  std::string first;  // since the last take()

  std::string take() {
    std::lock_guard lock(mutex);
    return std::exchange(first, std::string());
  }
};

// What a reader's demuxer and decoder callbacks share with it (their `opaque`).
struct ReaderState {
  ErrorLines errors;
  // get_format was offered the GPU's frames (AV_PIX_FMT_CUDA), and then asked
  // again without them: the hardware decoder could not be set up for the
  // stream, for the reason `refusal` (FFmpeg's line).
  bool cuda_offered = false;
  bool cuda_refused = false;
  std::string refusal;
};

// Replaces FFmpeg's log (which prints to standard error): lines of a reader's own
// contexts go to its ErrorLines, everything else is dropped.
// Whether a line below error level still means a damaged file: demuxers report a cut
// file only as a warning ("File ended prematurely") and hand out the frames before it.
bool names_truncation(const std::string& line) {
  for (const char* word : {"prematurely", "truncated", "partial file"})
    if (line.find(word) != std::string::npos) return true;
  return false;
}

void route_error_lines(void* avcl, int level, const char* format, va_list args) {
  if (level > AV_LOG_WARNING || !avcl) return;
  const AVClass* cls = *static_cast<const AVClass* const*>(avcl);
  void* owner = nullptr;
  if (cls == ffmpeg().avcodec_get_class()) owner = static_cast<AVCodecContext*>(avcl)->opaque;
  else if (cls == ffmpeg().avformat_get_class()) owner = static_cast<AVFormatContext*>(avcl)->opaque;
  if (!owner) return;
  char buffer[512];
  int print_prefix = 0;
  ffmpeg().av_log_format_line2(avcl, level, format, args, buffer, sizeof buffer, &print_prefix);
  std::string text(buffer);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.empty() || (level > AV_LOG_ERROR && !names_truncation(text))) return;
  ErrorLines* lines = &static_cast<ReaderState*>(owner)->errors;
  std::lock_guard lock(lines->mutex);
  if (lines->first.empty()) lines->first = std::move(text);
}

void install_log_callback() {
  static std::once_flag once;
  std::call_once(once, [] { ffmpeg().av_log_set_callback(route_error_lines); });
}

std::string error_text(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  ffmpeg().av_strerror(code, text, sizeof text);
  return text;
}

// "Invalid data found when processing input; moov atom not found": the code's text
// and FFmpeg's line about it.
std::string describe_error(int code, ErrorLines& lines) {
  std::string out = error_text(code);
  const std::string line = lines.take();
  if (!line.empty()) out += "; " + line;
  return out;
}

const char* pixel_format_name(int format) {
  const char* name = ffmpeg().av_get_pix_fmt_name(static_cast<AVPixelFormat>(format));
  return name ? name : "unknown";
}

// Planar YUV or gray, one plane per component, samples of one depth stored in 1 or 2
// little-endian bytes from bit 0: the layout Picture holds, so frames copy row by row.
std::optional<VideoFormat> video_format_of(int pixel_format, int width, int height) {
  const AVPixFmtDescriptor* d = ffmpeg().av_pix_fmt_desc_get(static_cast<AVPixelFormat>(pixel_format));
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

// Reads a pipe for FFmpeg through our InputFile, so the bytes open_video peeked at to
// choose the reader are not lost.
int read_input(void* opaque, uint8_t* buf, int size) {
  try {
    const size_t n = static_cast<InputFile*>(opaque)->read(buf, size_t(size));
    return n == 0 ? AVERROR_EOF : int(n);
  } catch (const std::exception&) {
    return AVERROR(EIO);
  }
}

// The hardware decoder cannot take this input (kAuto falls back to the CPU).
struct HwUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The GPU's frames when the decoder offers them, else its first software format.
AVPixelFormat choose_pixel_format(AVCodecContext* c, const AVPixelFormat* formats) {
  auto* state = static_cast<ReaderState*>(c->opaque);
  for (const AVPixelFormat* f = formats; *f != AV_PIX_FMT_NONE; ++f)
    if (*f == AV_PIX_FMT_CUDA) {
      state->cuda_offered = true;
      return *f;
    }
  if (state->cuda_offered && !state->cuda_refused) {
    // libavcodec asks again without the GPU's format when its setup failed; its
    // error lines say why, and are no sign of damage.
    state->cuda_refused = true;
    state->refusal = state->errors.take();
  }
  for (const AVPixelFormat* f = formats; *f != AV_PIX_FMT_NONE; ++f) {
    const AVPixFmtDescriptor* d = ffmpeg().av_pix_fmt_desc_get(*f);
    if (d && !(d->flags & AV_PIX_FMT_FLAG_HWACCEL)) return *f;
  }
  return AV_PIX_FMT_NONE;
}

// A decoder of `id` that libavcodec can run on a CUDA device (FFmpeg 5.1's
// native AV1 decoder decodes on hardware only; libdav1d is its software one).
const AVCodec* cuda_decoder_for(AVCodecID id) {
  void* it = nullptr;
  while (const AVCodec* c = ffmpeg().av_codec_iterate(&it)) {
    if (c->id != id || !ffmpeg().av_codec_is_decoder(c)) continue;
    for (int i = 0;; ++i) {
      const AVCodecHWConfig* config = ffmpeg().avcodec_get_hw_config(c, i);
      if (!config) break;
      if (config->device_type == AV_HWDEVICE_TYPE_CUDA &&
          (config->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX))
        return c;
    }
  }
  return nullptr;
}

struct BufferUnref {
  void operator()(AVBufferRef* b) const { ffmpeg().av_buffer_unref(&b); }
};

struct IoContextFreer {
  void operator()(AVIOContext* io) const {
    ffmpeg().av_freep(&io->buffer);
    ffmpeg().avio_context_free(&io);
  }
};

struct FormatContextCloser {
  void operator()(AVFormatContext* c) const { ffmpeg().avformat_close_input(&c); }
};

class FfmpegReader final : public VideoSource {
 public:
  // Reads `path`, or `pipe` (named `path` in messages) when it is given.
  // With `cuda_device` >= 0, the GPU decodes, or the constructor throws
  // HwUnavailable saying why it cannot.
  // `sessions` (DecodeOptions::sessions) above 1 decodes an H.264 or HEVC file
  // in pieces on that many decoder sessions at once.
  FfmpegReader(const std::string& path, std::unique_ptr<InputFile> pipe, int cuda_device = -1, int sessions = 0)
      : name_(pipe ? pipe->name() : path), pipe_(std::move(pipe)) {
    install_log_callback();
    open_stream(path);
    // A file cut short is often found while probing, before any frame is read.
    const std::string probing = state_.errors.take();
    if (!probing.empty())
      throw InputError(
          fmt::format("{}: the file is damaged or truncated (FFmpeg: {})", name_, probing));
    if (cuda_device >= 0) setup_cuda_decoding(cuda_device);
    open_decoder();
    frame_.reset(ffmpeg().av_frame_alloc());
    if (!frame_) throw std::bad_alloc();
    packet_ = new_packet();
    recording_ = true;
    if (!decode_first(cuda_device >= 0))
      throw InputError(fmt::format("{}: the video stream holds no frame", name_));
    if (cuda_device >= 0) check_cuda_frame();
    const auto f = video_format_of(on_gpu_ ? decoder_->sw_pix_fmt : frame_->format, visible_width(),
                                   visible_height());
    if (!f)
      throw InputError(fmt::format(
          "{}: pixel format {} is not supported: exactvq reads planar YUV 4:2:0, 4:2:2, "
          "4:4:4 or gray, 8 to 16 bits, as decoded (no conversion)",
          name_, pixel_format_name(frame_->format)));
    format_ = *f;
    pixel_format_ = frame_->format;
    validate_format(format_, name_);
    pending_ = true;
    recording_ = false;
    const int n = session_count(sessions);
    const int cpu_n = sessions > 0 ? 0 : cpu_session_count();
    if (n + cpu_n > 1 && !pipe_ && nal_codec() && !frame_->interlaced_frame)
      start_segments(n, cpu_n);
    else
      replay_.clear();
  }

  const VideoFormat& format() const override { return format_; }
  const std::string& name() const override { return name_; }
  std::optional<int64_t> frame_count() const override { return frame_count_; }
#ifdef EXACTVQ_HAVE_CUDA
  int cuda_decoder_device() const override { return on_gpu_ ? import_->ordinal() : -1; }
#endif
  void set_device_pictures(bool on) override { device_pictures_ = on; }
  int64_t decoding_segments() const override { return segments_ ? segments_->segments_started() : 0; }

  bool read_frame(Picture& pic) override {
    if (segments_) return read_segment_frame(pic);
    if (!next_frame()) return false;
    if (on_gpu_) {
      import_frame(pic);
    } else {
      copy_frame(pic);
      check_frame_samples(pic, name_, index_);
    }
    ++index_;
    return true;
  }

  bool skip_frame() override {
    if (segments_) {
      DecodedPicture d;
      if (!segments_->next(d)) return false;
      ++index_;
      return true;
    }
    if (!next_frame()) return false;
    ++index_;
    return true;
  }

 private:
  void open_stream(const std::string& path) {
    AVFormatContext* raw = ffmpeg().avformat_alloc_context();
    if (!raw) throw std::bad_alloc();
    raw->opaque = &state_;
    if (pipe_) {
      constexpr int kBufferBytes = 1 << 16;
      auto* buffer = static_cast<unsigned char*>(ffmpeg().av_malloc(kBufferBytes));
      AVIOContext* io = buffer ? ffmpeg().avio_alloc_context(buffer, kBufferBytes, 0, pipe_.get(),
                                                    read_input, nullptr, nullptr)
                               : nullptr;
      if (!io) {
        ffmpeg().av_free(buffer);
        ffmpeg().avformat_free_context(raw);
        throw std::bad_alloc();
      }
      io_.reset(io);
      raw->pb = io;
      raw->flags |= AVFMT_FLAG_CUSTOM_IO;
    }
    // Local files only: a playlist or concat script inside an unchecked input must
    // not make the demuxer open network addresses.
    AVDictionary* options = nullptr;
    ffmpeg().av_dict_set(&options, "protocol_whitelist", "file", 0);
    int r = ffmpeg().avformat_open_input(&raw, pipe_ ? "" : path.c_str(), nullptr, &options);  // frees on failure
    ffmpeg().av_dict_free(&options);
    if (r < 0)
      throw InputError(fmt::format(
          "{}: not a video FFmpeg can read ({}); raw YUV needs the extension .yuv or .raw "
          "and -w, -h, -p and -b",
          name_, describe_error(r, state_.errors)));
    format_context_.reset(raw);
    r = ffmpeg().avformat_find_stream_info(raw, nullptr);
    if (r < 0)
      throw InputError(
          fmt::format("{}: cannot read its streams: {}", name_, describe_error(r, state_.errors)));
    const AVCodec* codec = nullptr;
    r = ffmpeg().av_find_best_stream(raw, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (r == AVERROR_STREAM_NOT_FOUND)
      throw InputError(
          fmt::format("{}: no video stream (container {})", name_, raw->iformat->name));
    if (r < 0 || !codec) {
      const AVStream* st = r >= 0 ? raw->streams[r] : nullptr;
      throw InputError(fmt::format(
          "{}: no decoder for its video codec {} in this FFmpeg build", name_,
          st ? ffmpeg().avcodec_get_name(st->codecpar->codec_id) : "(unknown)"));
    }
    stream_index_ = r;
    for (unsigned i = 0; i < raw->nb_streams; ++i)
      if (int(i) != stream_index_) raw->streams[i]->discard = AVDISCARD_ALL;
    const AVStream* st = raw->streams[stream_index_];
    if (st->nb_frames > 0) frame_count_ = st->nb_frames;
    codec_ = codec;
  }

  void open_decoder() { decoder_ = make_decoder(state_, hw_device_.get()); }

  // A decoder of the stream as this reader opens it, its log lines to `state`,
  // on the GPU where `hw_device` is given.
  CodecContextPtr make_decoder(ReaderState& state, AVBufferRef* hw_device) const {
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

  // Frame threads of a GPU decoder: EXACTVQ_HWDEC_THREADS, else 2.
  static int hw_threads() {
    const char* env = std::getenv("EXACTVQ_HWDEC_THREADS");
    const int n = env ? std::atoi(env) : 0;
    return n >= 1 && n <= 16 ? n : 2;
  }

  int visible_width() const { return visible_width(frame_.get()); }
  int visible_height() const { return visible_height(frame_.get()); }
  int visible_width(const AVFrame* f) const { return f->width - int(on_gpu_ ? f->crop_left : 0); }
  int visible_height(const AVFrame* f) const { return f->height - int(on_gpu_ ? f->crop_top : 0); }

  // The first frame; a decoder that fails on it after the GPU's setup failed
  // (FFmpeg 5.1's AV1 decoder has no CPU path) could not use the GPU.
  bool decode_first(bool on_gpu) {
    try {
      return decode_next();
    } catch (const InputError& e) {
      if (!on_gpu || !state_.cuda_refused) throw;
      throw HwUnavailable(fmt::format("the GPU's decoder does not take this {} stream{}", codec_->name,
                                      state_.refusal.empty() ? "" : " (FFmpeg: " + state_.refusal + ")"));
    }
  }

#ifdef EXACTVQ_HAVE_CUDA
  // A CUDA device context on the device's primary context (the one the CUDA
  // runtime, hence the scoring, uses; given, not made by FFmpeg, which would
  // insist on its own scheduling flags), its stream our import's: the
  // decoder's post-processing and our conversion are ordered on it.
  void setup_cuda_decoding(int ordinal) {
    const AVCodec* codec = cuda_decoder_for(codec_->id);
    if (!codec)
      throw HwUnavailable(fmt::format("libavcodec decodes {} on the CPU only",
                                      ffmpeg().avcodec_get_name(codec_->id)));
    try {
      import_ = std::make_unique<cuda::DecodedFrameImport>(ordinal);
    } catch (const std::exception& e) {
      throw HwUnavailable(fmt::format("no CUDA device {}: {}", ordinal, e.what()));
    }
    hw_device_ = make_cuda_device(*import_);
    codec_ = codec;
  }

  // FFmpeg's CUDA device on the primary context of `import`'s device, with its
  // stream.
  static std::unique_ptr<AVBufferRef, BufferUnref> make_cuda_device(cuda::DecodedFrameImport& import) {
    void* primary = nullptr;
    try {
      primary = import.context();
    } catch (const std::exception& e) {
      throw HwUnavailable(fmt::format("no context on CUDA device {}: {}", import.ordinal(), e.what()));
    }
    std::unique_ptr<AVBufferRef, BufferUnref> device(ffmpeg().av_hwdevice_ctx_alloc(AV_HWDEVICE_TYPE_CUDA));
    if (!device) throw HwUnavailable("this FFmpeg has no CUDA device support");
    auto* context = reinterpret_cast<AVHWDeviceContext*>(device->data);
    auto* cuda = static_cast<AVCUDADeviceContext*>(context->hwctx);
    cuda->cuda_ctx = static_cast<CUcontext>(primary);
    cuda->stream = static_cast<CUstream>(import.stream());
    const int r = ffmpeg().av_hwdevice_ctx_init(device.get());
    if (r < 0)
      throw HwUnavailable(
          fmt::format("FFmpeg cannot use CUDA device {}: {}", import.ordinal(), error_text(r)));
    return device;
  }

  // The first frame came from the GPU, in a layout we convert; else why not.
  void check_cuda_frame() {
    if (frame_->format != AV_PIX_FMT_CUDA) {
      const std::string software = pixel_format_name(frame_->format);
      throw HwUnavailable(
          state_.cuda_refused
              ? fmt::format("the GPU's decoder does not take this {} stream ({}){}", codec_->name, software,
                            state_.refusal.empty() ? std::string() : "; FFmpeg: " + state_.refusal)
              : fmt::format("libavcodec has no GPU decoding of {} as {}", codec_->name, software));
    }
    sw_format_ = surface_format(frame_.get());
    const AVPixelFormat sw = static_cast<AVPixelFormat>(sw_format_);
    if (sw != AV_PIX_FMT_NV12 && sw != AV_PIX_FMT_P010 && sw != AV_PIX_FMT_P016 && sw != AV_PIX_FMT_YUV444P &&
        sw != AV_PIX_FMT_YUV444P16)
      throw HwUnavailable(fmt::format("the GPU's decoder leaves frames as {}, which exactvq does not convert",
                                      pixel_format_name(sw_format_)));
    on_gpu_ = true;
  }

  int surface_format(const AVFrame* frame) const {
    if (!frame->hw_frames_ctx) return AV_PIX_FMT_NONE;
    return reinterpret_cast<const AVHWFramesContext*>(frame->hw_frames_ctx->data)->sw_format;
  }

  // The planes of a frame of the GPU's decoder, as the conversion reads them.
  cuda::DecodedFrame decoded_frame(const AVFrame* frame) const {
    const AVPixelFormat sw = static_cast<AVPixelFormat>(sw_format_);
    cuda::DecodedFrame d;
    for (int p = 0; p < 3; ++p) {
      d.data[p] = frame->data[p];
      d.stride[p] = frame->linesize[p];
    }
    d.interleaved_chroma = sw == AV_PIX_FMT_NV12 || sw == AV_PIX_FMT_P010 || sw == AV_PIX_FMT_P016;
    d.bytes = sw == AV_PIX_FMT_NV12 || sw == AV_PIX_FMT_YUV444P ? 1 : 2;
    d.crop_left = int(frame->crop_left);
    d.crop_top = int(frame->crop_top);
    return d;
  }

  void import_frame(Picture& pic) {
    import_->import(decoded_frame(frame_.get()), format_, pic, device_pictures_,
                    [&] { return fmt::format("{}: frame {}", name_, index_); });
  }
#else
  [[noreturn]] void setup_cuda_decoding(int) {
    if (!cuda_decoder_for(codec_->id))
      throw HwUnavailable(fmt::format("libavcodec decodes {} on the CPU only", ffmpeg().avcodec_get_name(codec_->id)));
    throw HwUnavailable("this exactvq was built without CUDA");
  }
  void check_cuda_frame() {}
  int surface_format(const AVFrame*) const { return -1; }
  void import_frame(Picture&) {}
#endif

  bool next_frame() {
    if (pending_) {
      pending_ = false;
      return true;
    }
    ffmpeg().av_frame_unref(frame_.get());
    return decode_next();
  }

  [[noreturn]] void fail(const char* what, int code) {
    throw InputError(fmt::format("{}: frame {}: {}: {}", name_, index_, what,
                                 describe_error(code, state_.errors)));
  }

  // Decodes the next frame into frame_; false at the end of the stream.
  bool decode_next() {
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
      if (recording_) keep_for_replay(packet_.get());
      r = ffmpeg().avcodec_send_packet(decoder_.get(), packet_.get());
      ffmpeg().av_packet_unref(packet_.get());
      if (r < 0) fail("cannot decode", r);
    }
  }

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
        throw InputError(fmt::format("{}: {}: cannot read: {}", name_, where(), describe_error(r, state_.errors)));
      if (packet->stream_index != stream_index_) {
        ffmpeg().av_packet_unref(packet);
        continue;
      }
      if (packet->flags & AV_PKT_FLAG_CORRUPT)
        throw InputError(fmt::format("{}: {}: the file is damaged or truncated (an incomplete packet)", name_,
                                     where()));
      return true;
    }
  }

  // An error line from our demuxer or decoder means damage, even when the decoder
  // concealed it and returned a picture.
  void check_error_lines() { check_error_lines(state_.errors, index_); }
  void check_error_lines(ErrorLines& errors, int64_t index) const {
    const std::string line = errors.take();
    if (!line.empty())
      throw InputError(fmt::format(
          "{}: frame {}: the file is damaged or truncated (FFmpeg: {})", name_, index, line));
  }

  void check_decoded_frame() { check_decoded_frame(frame_.get(), state_.errors, index_); }
  // `frame`, the stream's frame `index`, is undamaged and of the first frame's format.
  void check_decoded_frame(const AVFrame* frame, ErrorLines& errors, int64_t index) const {
    check_error_lines(errors, index);
    if ((frame->flags & AV_FRAME_FLAG_CORRUPT) || frame->decode_error_flags != 0)
      throw InputError(fmt::format(
          "{}: frame {}: the decoder reports damaged data (the file is corrupt or truncated)",
          name_, index));
    if (pixel_format_ < 0) return;  // the first frame sets the format
    const bool gpu_frame = frame->format == AV_PIX_FMT_CUDA;
    if (on_gpu_ && !gpu_frame) {
      // a CPU session's frame beside the GPU's: the same pictures, in planes
      const auto f = video_format_of(frame->format, frame->width, frame->height);
      if (f && *f == format_) return;
      throw InputError(fmt::format(
          "{}: frame {} is {}x{} {} (decoded on the CPU), but the stream began {} (exactvq neither scales nor "
          "converts)",
          name_, index, frame->width, frame->height, pixel_format_name(frame->format), format_.describe()));
    }
    const int format = gpu_frame ? surface_format(frame) : frame->format;
    const int expected = on_gpu_ ? sw_format_ : pixel_format_;
    if (frame->format != pixel_format_ || format != expected || visible_width(frame) != format_.width ||
        visible_height(frame) != format_.height)
      throw InputError(fmt::format(
          "{}: frame {} is {}x{} {}{}, but the stream began {}x{} {}{} (exactvq neither scales nor "
          "converts)",
          name_, index, visible_width(frame), visible_height(frame), pixel_format_name(format),
          gpu_frame ? " on the GPU" : "", format_.width, format_.height, pixel_format_name(expected),
          on_gpu_ ? " on the GPU" : ""));
  }

  void copy_frame(Picture& pic) const { copy_frame(frame_.get(), pic); }
  void copy_frame(const AVFrame* frame, Picture& pic) const {
    const VideoFormat& f = format_;
    bool fits = pic.format == f;
    for (int p = 0; p < 3 && fits; ++p)
      fits = pic.planes[p].size() == (p < f.plane_count() ? f.plane_bytes(p) : 0);
    if (!fits) pic.allocate(f);
    for (int p = 0; p < f.plane_count(); ++p) {
      const size_t row_bytes = size_t(f.plane_width(p)) * size_t(f.bytes_per_sample());
      const int rows = f.plane_height(p);
      uint8_t* dst = pic.plane_data(p);
      const uint8_t* src = frame->data[p];
      const ptrdiff_t stride = frame->linesize[p];
      for (int y = 0; y < rows; ++y)
        std::memcpy(dst + size_t(y) * row_bytes, src + ptrdiff_t(y) * stride, row_bytes);
    }
  }

  // Segment-parallel decoding (segmented_decoding.h).

  // Decoder sessions for this input: `requested`, else the default of
  // DecodeOptions::sessions.
  int session_count(int requested) const {
    if (requested > 0) return std::min(requested, 16);
    if (!on_gpu_) return 1;
    const char* env = std::getenv("EXACTVQ_HWDEC_SESSIONS");
    const int n = env ? std::atoi(env) : 0;
    if (n >= 1 && n <= 16) return n;
    // The H200's best for a pair of 4K files (docs/performance.md): 4 sessions
    // a file for H.264, 3 for HEVC (whose sessions each keep an engine busier).
    return codec_->id == AV_CODEC_ID_H264 ? 4 : 3;
  }

  // CPU decoder sessions beside a GPU's (they take pieces too; their pictures
  // are uploaded): EXACTVQ_HWDEC_CPU_SESSIONS, else none. On an H200 one a file
  // adds 6-10% to an H.264 pair's ssim + psnr rate and takes 15% from VMAF's
  // (docs/performance.md).
  int cpu_session_count() const {
    if (!on_gpu_) return 0;
    const char* env = std::getenv("EXACTVQ_HWDEC_CPU_SESSIONS");
    const int n = env ? std::atoi(env) : 0;
    return n >= 0 && n <= 16 ? n : 0;
  }

  std::optional<NalCodec> nal_codec() const {
    if (codec_->id == AV_CODEC_ID_H264) return NalCodec::kH264;
    if (codec_->id == AV_CODEC_ID_HEVC) return NalCodec::kHevc;
    return std::nullopt;
  }

  void keep_for_replay(const AVPacket* packet) {
    PacketPtr copy = new_packet();
    if (ffmpeg().av_packet_ref(copy.get(), packet) < 0) throw std::bad_alloc();
    replay_.push_back(std::move(copy));
  }

  // From the first packet again (those the first frame took, then the rest),
  // on `sessions` decoder sessions; the decoder that read the first frame is
  // closed.
  void start_segments(int sessions, int cpu_sessions) {
    ffmpeg().av_frame_unref(frame_.get());
    pending_ = false;
    decoder_.reset();
    const AVCodecParameters* par = format_context_->streams[stream_index_]->codecpar;
    SegmentedDecodingSetup setup;
    setup.name = name_;
    setup.codec = *nal_codec();
    setup.framing = nal_framing_of(setup.codec, {par->extradata, size_t(std::max(par->extradata_size, 0))});
    setup.sessions = sessions + cpu_sessions;
    const size_t frame_bytes = Picture::span_bytes(format_, format_.plane_count());
    // Frames decoded ahead of the reads: pictures of up to 1.5 GiB in all (on the
    // GPU 4 GiB, or an eighth of its free memory where less), 4 to 64 a session;
    // a piece a slower session holds up is decoded past by that much.
    size_t budget = size_t(3) << 29;
#ifdef EXACTVQ_HAVE_CUDA
    if (on_gpu_) budget = std::min(size_t(4) << 30, import_->free_memory() / 8);
#endif
    setup.frames_ahead = int(std::clamp<size_t>(budget / (size_t(setup.sessions) * frame_bytes), 4, 64));
#ifdef EXACTVQ_HAVE_CUDA
    if (on_gpu_) pool_ = std::make_unique<cuda::DevicePicturePool>(import_->ordinal(), frame_bytes);
#endif
    setup.read_packet = [this](AVPacket* packet) { return read_stream_packet(packet); };
    setup.open_session = [this, sessions](int index) -> std::unique_ptr<SegmentDecoder> {
      return std::make_unique<Session>(*this, on_gpu_ && index < sessions);
    };
    segments_ = std::make_unique<SegmentedDecoding>(std::move(setup));
  }

  // The stream's next packet for the sessions (the first frame's again first).
  bool read_stream_packet(AVPacket* packet) {
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
      throw InputError(fmt::format("{}: {}: the file is damaged or truncated (FFmpeg: {})", name_, where(), line));
    if (more) ++packets_read_;
    return more;
  }

  bool read_segment_frame(Picture& pic) {
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

  // One decoder session of segment-parallel decoding: its own decoder (and on
  // the GPU its own stream), frames checked as the reader checks its own.
  class Session final : public SegmentDecoder {
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
    std::string describe_error(int code) override { return exactvq::describe_error(code, state_.errors); }

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

  std::string name_;
  VideoFormat format_;
  std::optional<int64_t> frame_count_;
  ReaderState state_;  // outlives the contexts below, which point at it
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
  bool on_gpu_ = false;          // frames are the GPU's (AV_PIX_FMT_CUDA)
  int sw_format_ = -1;           // their layout in device memory (NV12, P010, ...)
  bool device_pictures_ = false;  // read_frame leaves them in device memory
  bool recording_ = false;        // the packets the first frame takes are kept
  std::deque<PacketPtr> replay_;
  int64_t packets_read_ = 0;  // by the sessions
#ifdef EXACTVQ_HAVE_CUDA
  std::unique_ptr<cuda::DevicePicturePool> pool_;
#endif
  std::unique_ptr<SegmentedDecoding> segments_;  // last: its sessions use all above
};

// Opens `path` (or `pipe`) as `decode` says: on the GPU first where asked, a
// regular file only (a pipe cannot be read again for the fallback); where the
// GPU cannot decode it, on the CPU (kAuto, telling decode.fallback why) or an
// InputError naming the file and why (kCuda).
std::unique_ptr<VideoSource> open_with_decoding(const std::string& path, std::unique_ptr<InputFile> pipe,
                                                const DecodeOptions& decode) {
  if (decode.hw == HwDecode::kNone) return std::make_unique<FfmpegReader>(path, std::move(pipe), -1, decode.sessions);
  std::string why;
  if (pipe) {
    why = "a pipe is decoded on the CPU";
  } else {
    try {
      return std::make_unique<FfmpegReader>(path, nullptr, decode.cuda_device, decode.sessions);
    } catch (const HwUnavailable& e) {
      why = e.what();
    }
  }
  const std::string name = pipe ? pipe->name() : path;
  if (decode.hw == HwDecode::kCuda)
    throw InputError(fmt::format("{}: --hwdec cuda: {}", name, why));
  if (decode.fallback) decode.fallback(name, why);
  return std::make_unique<FfmpegReader>(path, std::move(pipe), -1, decode.sessions);
}

}  // namespace

std::unique_ptr<VideoSource> open_ffmpeg(const std::string& path, const DecodeOptions& decode) {
  return open_with_decoding(path, nullptr, decode);
}

std::unique_ptr<VideoSource> open_ffmpeg(std::unique_ptr<InputFile> in, const DecodeOptions& decode) {
  if (in->size()) {
    const std::string path = in->path();
    in.reset();
    return open_ffmpeg(path, decode);
  }
  const std::string path = in->path();
  return open_with_decoding(path, std::move(in), decode);
}

}  // namespace exactvq
