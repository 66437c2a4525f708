// FFmpeg's log, routed to the reader whose demuxer or decoder wrote a line (never
// printed), and the text of FFmpeg's error codes.
#pragma once

#include <mutex>
#include <string>
#include <utility>

namespace exactvq {

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

// Replaces FFmpeg's log with route_error_lines (ffmpeg_log.cpp), once a process.
void install_log_callback();

std::string error_text(int code);

// "Invalid data found when processing input; moov atom not found": the code's text
// and FFmpeg's line about it.
std::string describe_error(int code, ErrorLines& lines);

}  // namespace exactvq
