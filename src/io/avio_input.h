// A pipe as FFmpeg's input: its reads through our InputFile, and the owner of the
// AVIO context that makes them.
#pragma once

#include <cstdint>

#include "io/ffmpeg_library.h"

namespace exactvq {

// Reads a pipe for FFmpeg through our InputFile, so the bytes open_video peeked at to
// choose the reader are not lost.
int read_input(void* opaque, uint8_t* buf, int size);

struct IoContextFreer {
  void operator()(AVIOContext* io) const {
    ffmpeg().av_freep(&io->buffer);
    ffmpeg().avio_context_free(&io);
  }
};

}  // namespace exactvq
