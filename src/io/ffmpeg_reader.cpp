// Demuxing and decoding with libavformat / libavcodec, frames copied as they are.
#include "io/ffmpeg_reader.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
}

#include <fmt/format.h>

#include <cstdarg>
#include <cstring>
#include <mutex>
#include <optional>
#include <utility>

#include "core/error.h"
#include "io/frame_data.h"

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
  if (cls == avcodec_get_class()) owner = static_cast<AVCodecContext*>(avcl)->opaque;
  else if (cls == avformat_get_class()) owner = static_cast<AVFormatContext*>(avcl)->opaque;
  if (!owner) return;
  char buffer[512];
  int print_prefix = 0;
  av_log_format_line2(avcl, level, format, args, buffer, sizeof buffer, &print_prefix);
  std::string text(buffer);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.empty() || (level > AV_LOG_ERROR && !names_truncation(text))) return;
  auto* lines = static_cast<ErrorLines*>(owner);
  std::lock_guard lock(lines->mutex);
  if (lines->first.empty()) lines->first = std::move(text);
}

void install_log_callback() {
  static std::once_flag once;
  std::call_once(once, [] { av_log_set_callback(route_error_lines); });
}

std::string error_text(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
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
  const char* name = av_get_pix_fmt_name(static_cast<AVPixelFormat>(format));
  return name ? name : "unknown";
}

// Planar YUV or gray, one plane per component, samples of one depth stored in 1 or 2
// little-endian bytes from bit 0: the layout Picture holds, so frames copy row by row.
std::optional<VideoFormat> video_format_of(int pixel_format, int width, int height) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(static_cast<AVPixelFormat>(pixel_format));
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

struct IoContextFreer {
  void operator()(AVIOContext* io) const {
    av_freep(&io->buffer);
    avio_context_free(&io);
  }
};

struct FormatContextCloser {
  void operator()(AVFormatContext* c) const { avformat_close_input(&c); }
};
struct CodecContextFreer {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct PacketFreer {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct FrameFreer {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};

class FfmpegReader final : public VideoSource {
 public:
  // Reads `path`, or `pipe` (named `path` in messages) when it is given.
  FfmpegReader(const std::string& path, std::unique_ptr<InputFile> pipe)
      : name_(pipe ? pipe->name() : path), pipe_(std::move(pipe)) {
    install_log_callback();
    open_stream(path);
    // A file cut short is often found while probing, before any frame is read.
    const std::string probing = errors_.take();
    if (!probing.empty())
      throw InputError(
          fmt::format("{}: the file is damaged or truncated (FFmpeg: {})", name_, probing));
    open_decoder();
    frame_.reset(av_frame_alloc());
    packet_.reset(av_packet_alloc());
    if (!frame_ || !packet_) throw std::bad_alloc();
    if (!decode_next())
      throw InputError(fmt::format("{}: the video stream holds no frame", name_));
    const auto f = video_format_of(frame_->format, frame_->width, frame_->height);
    if (!f)
      throw InputError(fmt::format(
          "{}: pixel format {} is not supported: exactvq reads planar YUV 4:2:0, 4:2:2, "
          "4:4:4 or gray, 8 to 16 bits, as decoded (no conversion)",
          name_, pixel_format_name(frame_->format)));
    format_ = *f;
    pixel_format_ = frame_->format;
    validate_format(format_, name_);
    pending_ = true;
  }

  const VideoFormat& format() const override { return format_; }
  const std::string& name() const override { return name_; }
  std::optional<int64_t> frame_count() const override { return frame_count_; }

  bool read_frame(Picture& pic) override {
    if (!next_frame()) return false;
    copy_frame(pic);
    check_frame_samples(pic, name_, index_);
    ++index_;
    return true;
  }

  bool skip_frame() override {
    if (!next_frame()) return false;
    ++index_;
    return true;
  }

 private:
  void open_stream(const std::string& path) {
    AVFormatContext* raw = avformat_alloc_context();
    if (!raw) throw std::bad_alloc();
    raw->opaque = &errors_;
    if (pipe_) {
      constexpr int kBufferBytes = 1 << 16;
      auto* buffer = static_cast<unsigned char*>(av_malloc(kBufferBytes));
      AVIOContext* io = buffer ? avio_alloc_context(buffer, kBufferBytes, 0, pipe_.get(),
                                                    read_input, nullptr, nullptr)
                               : nullptr;
      if (!io) {
        av_free(buffer);
        avformat_free_context(raw);
        throw std::bad_alloc();
      }
      io_.reset(io);
      raw->pb = io;
      raw->flags |= AVFMT_FLAG_CUSTOM_IO;
    }
    // Local files only: a playlist or concat script inside an unchecked input must
    // not make the demuxer open network addresses.
    AVDictionary* options = nullptr;
    av_dict_set(&options, "protocol_whitelist", "file", 0);
    int r = avformat_open_input(&raw, pipe_ ? "" : path.c_str(), nullptr, &options);  // frees on failure
    av_dict_free(&options);
    if (r < 0)
      throw InputError(fmt::format(
          "{}: not a video FFmpeg can read ({}); raw YUV needs the extension .yuv or .raw "
          "and -w, -h, -p and -b",
          name_, describe_error(r, errors_)));
    format_context_.reset(raw);
    r = avformat_find_stream_info(raw, nullptr);
    if (r < 0)
      throw InputError(
          fmt::format("{}: cannot read its streams: {}", name_, describe_error(r, errors_)));
    const AVCodec* codec = nullptr;
    r = av_find_best_stream(raw, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (r == AVERROR_STREAM_NOT_FOUND)
      throw InputError(
          fmt::format("{}: no video stream (container {})", name_, raw->iformat->name));
    if (r < 0 || !codec) {
      const AVStream* st = r >= 0 ? raw->streams[r] : nullptr;
      throw InputError(fmt::format(
          "{}: no decoder for its video codec {} in this FFmpeg build", name_,
          st ? avcodec_get_name(st->codecpar->codec_id) : "(unknown)"));
    }
    stream_index_ = r;
    for (unsigned i = 0; i < raw->nb_streams; ++i)
      if (int(i) != stream_index_) raw->streams[i]->discard = AVDISCARD_ALL;
    const AVStream* st = raw->streams[stream_index_];
    if (st->nb_frames > 0) frame_count_ = st->nb_frames;
    codec_ = codec;
  }

  void open_decoder() {
    const AVStream* st = format_context_->streams[stream_index_];
    decoder_.reset(avcodec_alloc_context3(codec_));
    if (!decoder_) throw std::bad_alloc();
    int r = avcodec_parameters_to_context(decoder_.get(), st->codecpar);
    if (r >= 0) {
      decoder_->opaque = &errors_;
      decoder_->pkt_timebase = st->time_base;
      decoder_->thread_count = 0;  // as many as the machine has
      decoder_->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
      // Damage is an error, never a concealed picture scored as if it were the encode.
      decoder_->err_recognition = AV_EF_CRCCHECK | AV_EF_BITSTREAM | AV_EF_BUFFER | AV_EF_EXPLODE;
      // Crop exactly, even at unaligned left or top offsets.
      decoder_->flags |= AV_CODEC_FLAG_UNALIGNED;
      r = avcodec_open2(decoder_.get(), codec_, nullptr);
    }
    if (r < 0)
      throw InputError(fmt::format("{}: cannot open the {} decoder: {}", name_, codec_->name,
                                   describe_error(r, errors_)));
  }

  bool next_frame() {
    if (pending_) {
      pending_ = false;
      return true;
    }
    av_frame_unref(frame_.get());
    return decode_next();
  }

  [[noreturn]] void fail(const char* what, int code) {
    throw InputError(fmt::format("{}: frame {}: {}: {}", name_, index_, what,
                                 describe_error(code, errors_)));
  }

  // Decodes the next frame into frame_; false at the end of the stream.
  bool decode_next() {
    for (;;) {
      int r = avcodec_receive_frame(decoder_.get(), frame_.get());
      if (r == 0) {
        check_decoded_frame();
        return true;
      }
      if (r == AVERROR_EOF) {
        check_error_lines();
        return false;
      }
      if (r != AVERROR(EAGAIN) || draining_) fail("cannot decode", r);
      r = av_read_frame(format_context_.get(), packet_.get());
      if (r == AVERROR_EOF) {
        const AVIOContext* io = format_context_->pb;
        if (io && io->error < 0) fail("cannot read", io->error);
        draining_ = true;
        r = avcodec_send_packet(decoder_.get(), nullptr);
        if (r < 0) fail("cannot decode", r);
        continue;
      }
      if (r < 0) fail("cannot read", r);
      if (packet_->stream_index != stream_index_) {
        av_packet_unref(packet_.get());
        continue;
      }
      const bool corrupt = packet_->flags & AV_PKT_FLAG_CORRUPT;
      if (!corrupt) r = avcodec_send_packet(decoder_.get(), packet_.get());
      av_packet_unref(packet_.get());
      if (corrupt)
        throw InputError(fmt::format(
            "{}: frame {}: the file is damaged or truncated (an incomplete packet)", name_,
            index_));
      if (r < 0) fail("cannot decode", r);
    }
  }

  // An error line from our demuxer or decoder means damage, even when the decoder
  // concealed it and returned a picture.
  void check_error_lines() {
    const std::string line = errors_.take();
    if (!line.empty())
      throw InputError(fmt::format(
          "{}: frame {}: the file is damaged or truncated (FFmpeg: {})", name_, index_, line));
  }

  void check_decoded_frame() {
    check_error_lines();
    if ((frame_->flags & AV_FRAME_FLAG_CORRUPT) || frame_->decode_error_flags != 0)
      throw InputError(fmt::format(
          "{}: frame {}: the decoder reports damaged data (the file is corrupt or truncated)",
          name_, index_));
    if (pixel_format_ < 0) return;  // the first frame sets the format
    if (frame_->format != pixel_format_ || frame_->width != format_.width ||
        frame_->height != format_.height)
      throw InputError(fmt::format(
          "{}: frame {} is {}x{} {}, but the stream began {}x{} {} (exactvq neither scales nor "
          "converts)",
          name_, index_, frame_->width, frame_->height, pixel_format_name(frame_->format),
          format_.width, format_.height, pixel_format_name(pixel_format_)));
  }

  void copy_frame(Picture& pic) const {
    const VideoFormat& f = format_;
    bool fits = pic.format == f;
    for (int p = 0; p < 3 && fits; ++p)
      fits = pic.planes[p].size() == (p < f.plane_count() ? f.plane_bytes(p) : 0);
    if (!fits) pic.allocate(f);
    for (int p = 0; p < f.plane_count(); ++p) {
      const size_t row_bytes = size_t(f.plane_width(p)) * size_t(f.bytes_per_sample());
      const int rows = f.plane_height(p);
      uint8_t* dst = pic.plane_data(p);
      const uint8_t* src = frame_->data[p];
      const ptrdiff_t stride = frame_->linesize[p];
      for (int y = 0; y < rows; ++y)
        std::memcpy(dst + size_t(y) * row_bytes, src + ptrdiff_t(y) * stride, row_bytes);
    }
  }

  std::string name_;
  VideoFormat format_;
  std::optional<int64_t> frame_count_;
  ErrorLines errors_;  // outlives the contexts below, which point at it
  std::unique_ptr<InputFile> pipe_;  // with io_, the input of a pipe
  std::unique_ptr<AVIOContext, IoContextFreer> io_;
  std::unique_ptr<AVFormatContext, FormatContextCloser> format_context_;
  std::unique_ptr<AVCodecContext, CodecContextFreer> decoder_;
  std::unique_ptr<AVPacket, PacketFreer> packet_;
  std::unique_ptr<AVFrame, FrameFreer> frame_;
  const AVCodec* codec_ = nullptr;
  int stream_index_ = -1;
  int pixel_format_ = -1;  // set from the first frame
  int64_t index_ = 0;      // frames read or skipped so far
  bool pending_ = false;   // frame_ holds a decoded frame not yet handed out
  bool draining_ = false;
};

}  // namespace

std::unique_ptr<VideoSource> open_ffmpeg(const std::string& path) {
  return std::make_unique<FfmpegReader>(path, nullptr);
}

std::unique_ptr<VideoSource> open_ffmpeg(std::unique_ptr<InputFile> in) {
  if (in->size()) {
    const std::string path = in->path();
    in.reset();
    return open_ffmpeg(path);
  }
  const std::string path = in->path();
  return std::make_unique<FfmpegReader>(path, std::move(in));
}

}  // namespace exactvq
