#include "io/ffmpeg_cuda_decoding.h"

#ifdef EXACTVQ_HAVE_CUDA
extern "C" {
#include <libavutil/hwcontext_cuda.h>
}
#endif

#include <fmt/format.h>

#include <exception>
#include <memory>
#include <string>

#include "io/ffmpeg_pixel_formats.h"
#include "io/ffmpeg_reader_class.h"
#include "io/ffmpeg_reader_state.h"

namespace exactvq {

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

#ifdef EXACTVQ_HAVE_CUDA
void FfmpegReader::setup_cuda_decoding(int ordinal) {
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

std::unique_ptr<AVBufferRef, BufferUnref> FfmpegReader::make_cuda_device(
    cuda::DecodedFrameImport& import) {
  void* primary = nullptr;
  try {
    primary = import.context();
  } catch (const std::exception& e) {
    throw HwUnavailable(
        fmt::format("no context on CUDA device {}: {}", import.ordinal(), e.what()));
  }
  std::unique_ptr<AVBufferRef, BufferUnref> device(
      ffmpeg().av_hwdevice_ctx_alloc(AV_HWDEVICE_TYPE_CUDA));
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

void FfmpegReader::check_cuda_frame() {
  if (frame_->format != AV_PIX_FMT_CUDA) {
    const std::string software = pixel_format_name(frame_->format);
    throw HwUnavailable(
        state_.cuda_refused
            ? fmt::format("the GPU's decoder does not take this {} stream ({}){}", codec_->name,
                          software,
                          state_.refusal.empty() ? std::string() : "; FFmpeg: " + state_.refusal)
            : fmt::format("libavcodec has no GPU decoding of {} as {}", codec_->name, software));
  }
  sw_format_ = surface_format(frame_.get());
  const AVPixelFormat sw = static_cast<AVPixelFormat>(sw_format_);
  if (sw != AV_PIX_FMT_NV12 && sw != AV_PIX_FMT_P010 && sw != AV_PIX_FMT_P016 &&
      sw != AV_PIX_FMT_YUV444P && sw != AV_PIX_FMT_YUV444P16)
    throw HwUnavailable(
        fmt::format("the GPU's decoder leaves frames as {}, which exactvq does not convert",
                    pixel_format_name(sw_format_)));
  on_gpu_ = true;
}

int FfmpegReader::surface_format(const AVFrame* frame) const {
  if (!frame->hw_frames_ctx) return AV_PIX_FMT_NONE;
  return reinterpret_cast<const AVHWFramesContext*>(frame->hw_frames_ctx->data)->sw_format;
}

cuda::DecodedFrame FfmpegReader::decoded_frame(const AVFrame* frame) const {
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

void FfmpegReader::import_frame(Picture& pic) {
  import_->import(decoded_frame(frame_.get()), format_, pic, device_pictures_,
                  [&] { return fmt::format("{}: frame {}", name_, index_); });
}
#else
void FfmpegReader::setup_cuda_decoding(int) {
  if (!cuda_decoder_for(codec_->id))
    throw HwUnavailable(fmt::format("libavcodec decodes {} on the CPU only",
                                    ffmpeg().avcodec_get_name(codec_->id)));
  throw HwUnavailable("this exactvq was built without CUDA");
}
#endif

}  // namespace exactvq
