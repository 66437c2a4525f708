// What a reader's demuxer and decoder callbacks share with it (their `opaque`):
// the log's lines and the GPU decoder's format negotiation.
#pragma once

#include <string>

#include "io/ffmpeg_log.h"

namespace exactvq {

struct ReaderState {
  ErrorLines errors;
  // get_format was offered the GPU's frames (AV_PIX_FMT_CUDA), and then asked
  // again without them: the hardware decoder could not be set up for the
  // stream, for the reason `refusal` (FFmpeg's line).
  bool cuda_offered = false;
  bool cuda_refused = false;
  std::string refusal;
};

}  // namespace exactvq
