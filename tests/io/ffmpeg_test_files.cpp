#include "ffmpeg_test_files.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
}

#include <fmt/format.h>

#include <cstring>
#include <memory>

namespace exactvq::test {

Picture make_picture(const VideoFormat& f, int index, int variant) {
  Picture pic;
  pic.allocate(f);
  const uint32_t max = f.max_sample();
  uint32_t state = 0x9e3779b9u * uint32_t(variant + 1) + uint32_t(index) * 7919u;
  for (int p = 0; p < f.plane_count(); ++p) {
    const int w = f.plane_width(p), h = f.plane_height(p);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        // A smooth ramp in both directions that shifts with the frame index.
        const uint32_t base =
            uint32_t((x * 5 + y * 3 + index * 4 + p * 40) % 200) * (max + 1) / 256 + (max + 1) / 8;
        uint32_t v = base;
        if (variant != 0) {
          state = state * 1664525u + 1013904223u;
          const uint32_t noise = (state >> 24) % 32 * (max + 1) / 256;
          v = base + noise;
        }
        if (v > max) v = max;
        const size_t at = size_t(y) * size_t(w) + size_t(x);
        if (f.bytes_per_sample() == 1) {
          pic.plane_data(p)[at] = uint8_t(v);
        } else {
          const auto s = uint16_t(v);
          std::memcpy(pic.plane_data(p) + at * 2, &s, 2);
        }
      }
    }
  }
  return pic;
}

std::vector<Picture> make_pictures(const VideoFormat& f, int count, int variant) {
  std::vector<Picture> out;
  for (int i = 0; i < count; ++i) out.push_back(make_picture(f, i, variant));
  return out;
}

std::string pixel_format_name(const VideoFormat& f) {
  const std::string depth = f.bitdepth > 8 ? fmt::format("{}le", f.bitdepth) : "";
  if (f.chroma == ChromaFormat::kMono) return "gray" + depth;
  return fmt::format("yuv{}p{}", chroma_name(f.chroma), depth);
}

namespace {

std::string error_text(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
}

struct OutputCloser {
  void operator()(AVFormatContext* c) const {
    if (!c) return;
    if (c->pb && !(c->oformat->flags & AVFMT_NOFILE)) avio_closep(&c->pb);
    avformat_free_context(c);
  }
};
struct CodecFreer {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct FrameFreer {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};
struct PacketFreer {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};

// Sends `frame` (null: flush) and writes every packet the encoder returns.
std::string encode_and_write(AVCodecContext* enc, AVFormatContext* out, AVStream* st,
                             AVFrame* frame, AVPacket* pkt) {
  int r = avcodec_send_frame(enc, frame);
  if (r < 0) return "send frame: " + error_text(r);
  for (;;) {
    r = avcodec_receive_packet(enc, pkt);
    if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return "";
    if (r < 0) return "receive packet: " + error_text(r);
    if (pkt->duration == 0) pkt->duration = 1;
    av_packet_rescale_ts(pkt, enc->time_base, st->time_base);
    pkt->stream_index = st->index;
    r = av_interleaved_write_frame(out, pkt);
    if (r < 0) return "write packet: " + error_text(r);
  }
}

}  // namespace

bool can_encode(const EncodeSpec& spec) {
  return av_guess_format(spec.container.c_str(), nullptr, nullptr) != nullptr &&
         avcodec_find_encoder_by_name(spec.codec.c_str()) != nullptr;
}

std::string encode_video(const std::string& path, const std::vector<Picture>& frames,
                         const EncodeSpec& spec) {
  if (frames.empty()) return "no frames";
  const VideoFormat& f = frames.front().format;
  const std::string pix_name = spec.pixel_format.empty() ? pixel_format_name(f) : spec.pixel_format;
  const AVPixelFormat pix = av_get_pix_fmt(pix_name.c_str());
  if (pix == AV_PIX_FMT_NONE) return "unknown pixel format " + pix_name;
  const AVCodec* codec = avcodec_find_encoder_by_name(spec.codec.c_str());
  if (!codec) return "no encoder " + spec.codec;

  AVFormatContext* raw_out = nullptr;
  int r = avformat_alloc_output_context2(&raw_out, nullptr, spec.container.c_str(), path.c_str());
  if (r < 0) return "output context: " + error_text(r);
  std::unique_ptr<AVFormatContext, OutputCloser> out(raw_out);
  AVStream* st = avformat_new_stream(out.get(), nullptr);
  std::unique_ptr<AVCodecContext, CodecFreer> enc(avcodec_alloc_context3(codec));
  if (!st || !enc) return "allocation";
  enc->width = f.width;
  enc->height = f.height;
  enc->pix_fmt = pix;
  enc->time_base = AVRational{1, 25};
  enc->framerate = AVRational{25, 1};
  enc->gop_size = 12;
  enc->thread_count = 1;
  if (out->oformat->flags & AVFMT_GLOBALHEADER) enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  AVDictionary* options = nullptr;
  if (!spec.options.empty()) {
    r = av_dict_parse_string(&options, spec.options.c_str(), "=", ":", 0);
    if (r < 0) return "options: " + error_text(r);
  }
  r = avcodec_open2(enc.get(), codec, &options);
  av_dict_free(&options);
  if (r < 0) return "open encoder: " + error_text(r);
  r = avcodec_parameters_from_context(st->codecpar, enc.get());
  if (r < 0) return "parameters: " + error_text(r);
  st->time_base = enc->time_base;
  r = avio_open(&out->pb, path.c_str(), AVIO_FLAG_WRITE);
  if (r < 0) return "open file: " + error_text(r);
  r = avformat_write_header(out.get(), nullptr);
  if (r < 0) return "header: " + error_text(r);

  std::unique_ptr<AVPacket, PacketFreer> pkt(av_packet_alloc());
  for (size_t i = 0; i < frames.size(); ++i) {
    std::unique_ptr<AVFrame, FrameFreer> frame(av_frame_alloc());
    frame->format = pix;
    frame->width = f.width;
    frame->height = f.height;
    r = av_frame_get_buffer(frame.get(), 0);
    if (r < 0) return "frame buffer: " + error_text(r);
    const Picture& pic = frames[i];
    if (pix_name != pixel_format_name(f)) {
      // Another layout than the pictures': a mid-grey frame that only has to decode.
      size_t sizes[4] = {};
      ptrdiff_t lines[4];
      for (int p = 0; p < 4; ++p) lines[p] = frame->linesize[p];
      r = av_image_fill_plane_sizes(sizes, pix, f.height, lines);
      if (r < 0) return "plane sizes: " + error_text(r);
      for (int p = 0; p < 4 && frame->data[p]; ++p) std::memset(frame->data[p], 0x60, sizes[p]);
    }
    for (int p = 0; p < f.plane_count() && pix_name == pixel_format_name(f); ++p) {
      const PlaneView v = pic.plane(p);
      const size_t row = size_t(v.width) * size_t(v.bytes_per_sample);
      for (int y = 0; y < v.height; ++y)
        std::memcpy(frame->data[p] + ptrdiff_t(y) * frame->linesize[p], v.row<uint8_t>(y), row);
    }
    frame->pts = int64_t(i);
    frame->pkt_duration = 1;  // so that MP4 keeps the last frame's duration
    const std::string error = encode_and_write(enc.get(), out.get(), st, frame.get(), pkt.get());
    if (!error.empty()) return error;
  }
  const std::string error = encode_and_write(enc.get(), out.get(), st, nullptr, pkt.get());
  if (!error.empty()) return error;
  r = av_write_trailer(out.get());
  if (r < 0) return "trailer: " + error_text(r);
  return "";
}

std::string y4m_file_bytes(const std::vector<Picture>& frames) {
  const VideoFormat& f = frames.front().format;
  std::string tag;
  if (f.chroma == ChromaFormat::kMono)
    tag = "mono";
  else
    tag = chroma_name(f.chroma);
  if (f.bitdepth > 8)
    tag += f.chroma == ChromaFormat::kMono ? fmt::format("{}", f.bitdepth)
                                           : fmt::format("p{}", f.bitdepth);
  else if (f.chroma == ChromaFormat::k420)
    tag = "420jpeg";
  std::string out = fmt::format("YUV4MPEG2 W{} H{} F25:1 Ip A1:1 C{}\n", f.width, f.height, tag);
  for (const Picture& pic : frames) {
    out += "FRAME\n";
    for (int p = 0; p < f.plane_count(); ++p)
      out.append(reinterpret_cast<const char*>(pic.planes[p].data()), pic.planes[p].size());
  }
  return out;
}

}  // namespace exactvq::test
