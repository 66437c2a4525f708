// Constructors of the concrete readers on an already opened input (used by
// open_video, which may have peeked at the input to choose).
#pragma once

#include <memory>

#include "core/picture.h"
#include "io/input_file.h"
#include "io/video_source.h"

namespace exactvq {

std::unique_ptr<VideoSource> make_y4m_reader(std::unique_ptr<InputFile> in);
std::unique_ptr<VideoSource> make_raw_yuv_reader(std::unique_ptr<InputFile> in,
                                                 const VideoFormat& format);

}  // namespace exactvq
