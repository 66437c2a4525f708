// FFmpeg's libraries, opened (dlopen) when the first input needs them rather than
// when exactvq starts. libavformat and libavcodec pull in over a hundred
// libraries, linked BIND_NOW by Debian: loading and binding them dominated the
// start-up of every run, Y4M and raw YUV included (docs/figures.md, "The next
// step").
#pragma once

#include <memory>
#include <new>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/hwcontext.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
}

namespace exactvq {

// Every FFmpeg function the reader and its decoder sessions call.
#define EXACTVQ_FFMPEG_FUNCTIONS(X)                                                                \
  X(av_buffer_ref)                                                                                 \
  X(av_buffer_unref) X(av_codec_is_decoder) X(av_codec_iterate) X(av_dict_free) X(av_dict_set)     \
      X(av_find_best_stream) X(av_frame_alloc) X(av_frame_free) X(av_frame_unref) X(av_free)       \
          X(av_freep) X(av_get_pix_fmt_name) X(av_hwdevice_ctx_alloc) X(av_hwdevice_ctx_init)      \
              X(av_log_format_line2) X(av_log_set_callback) X(av_malloc) X(av_packet_alloc)        \
                  X(av_packet_free) X(av_packet_unref) X(av_pix_fmt_desc_get) X(av_read_frame)     \
                      X(av_strerror) X(av_packet_ref) X(av_packet_move_ref) X(av_new_packet) X(    \
                          av_packet_copy_props) X(avcodec_flush_buffers) X(avcodec_alloc_context3) \
                          X(avcodec_free_context) X(avcodec_get_class) X(avcodec_get_hw_config)    \
                              X(avcodec_get_name) X(avcodec_open2)                                 \
                                  X(avcodec_parameters_to_context) X(avcodec_receive_frame)        \
                                      X(avcodec_send_packet) X(avformat_alloc_context)             \
                                          X(avformat_close_input) X(avformat_find_stream_info)     \
                                              X(avformat_free_context) X(avformat_get_class)       \
                                                  X(avformat_open_input) X(avio_alloc_context)     \
                                                      X(avio_context_free)

struct FfmpegLibrary {
#define EXACTVQ_FFMPEG_POINTER(name) decltype(&::name) name = nullptr;
  EXACTVQ_FFMPEG_FUNCTIONS(EXACTVQ_FFMPEG_POINTER)
#undef EXACTVQ_FFMPEG_POINTER
};

// The functions, the libraries opened on the first call (thread-safe). Throws
// InputError "cannot load FFmpeg's libraries (libavformat.so.N): <why>" when they
// cannot be opened or lack a function.
const FfmpegLibrary& ffmpeg();

// Owners of FFmpeg's packets, frames, decoders, buffers and demuxers.
struct PacketFreer {
  void operator()(AVPacket* p) const { ffmpeg().av_packet_free(&p); }
};
struct FrameFreer {
  void operator()(AVFrame* f) const { ffmpeg().av_frame_free(&f); }
};
struct CodecContextFreer {
  void operator()(AVCodecContext* c) const { ffmpeg().avcodec_free_context(&c); }
};
struct BufferUnref {
  void operator()(AVBufferRef* b) const { ffmpeg().av_buffer_unref(&b); }
};
struct FormatContextCloser {
  void operator()(AVFormatContext* c) const { ffmpeg().avformat_close_input(&c); }
};
using PacketPtr = std::unique_ptr<AVPacket, PacketFreer>;
using FramePtr = std::unique_ptr<AVFrame, FrameFreer>;
using CodecContextPtr = std::unique_ptr<AVCodecContext, CodecContextFreer>;

// A new empty packet (std::bad_alloc where FFmpeg has no memory).
inline PacketPtr new_packet() {
  PacketPtr p(ffmpeg().av_packet_alloc());
  if (!p) throw std::bad_alloc();
  return p;
}

}  // namespace exactvq
