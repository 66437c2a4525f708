// FFmpeg's pixel formats as exactvq reads them: their names, and the VideoFormat of
// those whose frames copy as they are.
#pragma once

#include <optional>

#include "core/picture.h"

namespace exactvq {

// FFmpeg's name of `format` (an AVPixelFormat), or "unknown".
const char* pixel_format_name(int format);

// Planar YUV or gray, one plane per component, samples of one depth stored in 1 or 2
// little-endian bytes from bit 0: the layout Picture holds, so frames copy row by row.
std::optional<VideoFormat> video_format_of(int pixel_format, int width, int height);

}  // namespace exactvq
