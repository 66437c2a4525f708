// Decoding on a CUDA device through libavcodec: which decoder can, and the format
// callback that takes the GPU's frames. FfmpegReader's members that set it up and
// import its frames are defined in ffmpeg_cuda_decoding.cpp.
#pragma once

#include "io/ffmpeg_library.h"

namespace exactvq {

// The GPU's frames when the decoder offers them, else its first software format.
AVPixelFormat choose_pixel_format(AVCodecContext* c, const AVPixelFormat* formats);

// A decoder of `id` that libavcodec can run on a CUDA device (FFmpeg 5.1's
// native AV1 decoder decodes on hardware only; libdav1d is its software one).
const AVCodec* cuda_decoder_for(AVCodecID id);

}  // namespace exactvq
