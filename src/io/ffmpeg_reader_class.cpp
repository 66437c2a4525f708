// FfmpegReader's container (the stream it opens) and the frames it hands out.
#include "io/ffmpeg_reader_class.h"

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <new>

#include "core/startup_trace.h"
#include "io/ffmpeg_pixel_formats.h"
#include "io/frame_data.h"

namespace exactvq {

FfmpegReader::FfmpegReader(const std::string& path, std::unique_ptr<InputFile> pipe,
                           int cuda_device, int sessions)
    : name_(pipe ? pipe->name() : path), trace_(startup::input_name()), pipe_(std::move(pipe)) {
  install_log_callback();
  startup::mark("ffmpeg loaded");
  open_stream(path);
  mark("probed");
  // A file cut short is often found while probing, before any frame is read.
  const std::string probing = state_.errors.take();
  if (!probing.empty())
    throw InputError(
        fmt::format("{}: the file is damaged or truncated (FFmpeg: {})", name_, probing));
  if (cuda_device >= 0) {
    setup_cuda_decoding(cuda_device);
    mark("cuda ready");
  }
  open_decoder();
  mark("decoder opened");
  frame_.reset(ffmpeg().av_frame_alloc());
  if (!frame_) throw std::bad_alloc();
  packet_ = new_packet();
  recording_ = true;
  // Segment-parallel decoding is chosen before the first frame: its first
  // session goes on with this decoder, whose packets are then stamped with
  // their places (only timestamps: the pictures are the same).
  const AVCodecParameters* par = format_context_->streams[stream_index_]->codecpar;
  const bool gpu = cuda_device >= 0;  // else the constructor throws HwUnavailable
  const int n = session_count(sessions, gpu, par->width, par->height);
  const int cpu_n = sessions > 0 ? 0 : cpu_session_count(gpu);
  stamping_ = n + cpu_n > 1 && !pipe_ && nal_codec();
  if (!decode_first(cuda_device >= 0))
    throw InputError(fmt::format("{}: the video stream holds no frame", name_));
  if (cuda_device >= 0) check_cuda_frame();
  mark("first frame");
  const auto f = video_format_of(on_gpu_ ? decoder_->sw_pix_fmt : frame_->format, visible_width(),
                                 visible_height());
  if (!f)
    throw InputError(
        fmt::format("{}: pixel format {} is not supported: exactvq reads planar YUV 4:2:0, 4:2:2, "
                    "4:4:4 or gray, 8 to 16 bits, as decoded (no conversion)",
                    name_, pixel_format_name(frame_->format)));
  format_ = *f;
  pixel_format_ = frame_->format;
  validate_format(format_, name_);
  pending_ = true;
  recording_ = false;
  stamping_ = false;
  if (n + cpu_n > 1 && !pipe_ && nal_codec() && !frame_->interlaced_frame) {
    start_segments(n, cpu_n);
    mark("sessions started");
  } else {
    replay_.clear();
  }
}

void FfmpegReader::mark(const char* stage) const {
  if (!trace_.empty()) startup::mark(fmt::format("{} {}", trace_, stage));
}

bool FfmpegReader::read_frame(Picture& pic) {
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

bool FfmpegReader::skip_frame() {
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

namespace {

// EXACTVQ_STREAM_INFO=0 (for benchmarks of the opening, whose probing of an
// H.264 stream decodes several frames on one CPU thread): libavformat's
// probing of the streams is left out where the container's header already
// gave a video stream's codec, size and codec parameters (Matroska, MP4).
bool stream_info_given(const AVFormatContext* context) {
  const char* skip = std::getenv("EXACTVQ_STREAM_INFO");
  if (!skip || std::string_view(skip) != "0") return false;
  for (unsigned i = 0; i < context->nb_streams; ++i) {
    const AVCodecParameters* p = context->streams[i]->codecpar;
    if (p->codec_type == AVMEDIA_TYPE_VIDEO && p->codec_id != AV_CODEC_ID_NONE && p->width > 0 &&
        p->height > 0 && p->extradata_size > 0)
      return true;
  }
  return false;
}

}  // namespace

void FfmpegReader::open_stream(const std::string& path) {
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
  int r = ffmpeg().avformat_open_input(&raw, pipe_ ? "" : path.c_str(), nullptr,
                                       &options);  // frees on failure
  ffmpeg().av_dict_free(&options);
  if (r < 0)
    throw InputError(fmt::format(
        "{}: not a video FFmpeg can read ({}); raw YUV needs the extension .yuv or .raw "
        "and -w, -h, -p and -b",
        name_, describe_error(r, state_.errors)));
  format_context_.reset(raw);
  if (!stream_info_given(raw)) {
    r = ffmpeg().avformat_find_stream_info(raw, nullptr);
    if (r < 0)
      throw InputError(
          fmt::format("{}: cannot read its streams: {}", name_, describe_error(r, state_.errors)));
  }
  const AVCodec* codec = nullptr;
  r = ffmpeg().av_find_best_stream(raw, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
  if (r == AVERROR_STREAM_NOT_FOUND)
    throw InputError(fmt::format("{}: no video stream (container {})", name_, raw->iformat->name));
  if (r < 0 || !codec) {
    const AVStream* st = r >= 0 ? raw->streams[r] : nullptr;
    throw InputError(
        fmt::format("{}: no decoder for its video codec {} in this FFmpeg build", name_,
                    st ? ffmpeg().avcodec_get_name(st->codecpar->codec_id) : "(unknown)"));
  }
  stream_index_ = r;
  for (unsigned i = 0; i < raw->nb_streams; ++i)
    if (int(i) != stream_index_) raw->streams[i]->discard = AVDISCARD_ALL;
  const AVStream* st = raw->streams[stream_index_];
  if (st->nb_frames > 0) frame_count_ = st->nb_frames;
  codec_ = codec;
}

bool FfmpegReader::next_frame() {
  if (pending_) {
    pending_ = false;
    return true;
  }
  ffmpeg().av_frame_unref(frame_.get());
  return decode_next();
}

void FfmpegReader::copy_frame(const AVFrame* frame, Picture& pic) const {
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

}  // namespace exactvq
