#include "io/ffmpeg_log.h"

#include <cstdarg>

#include "io/ffmpeg_library.h"
#include "io/ffmpeg_reader_state.h"

namespace exactvq {

namespace {

// Whether a line below error level still means a damaged file: demuxers report a cut
// file only as a warning ("File ended prematurely") and hand out the frames before it.
bool names_truncation(const std::string& line) {
  for (const char* word : {"prematurely", "truncated", "partial file"})
    if (line.find(word) != std::string::npos) return true;
  return false;
}

// Replaces FFmpeg's log (which prints to standard error): lines of a reader's own
// contexts go to its ErrorLines, everything else is dropped.
void route_error_lines(void* avcl, int level, const char* format, va_list args) {
  if (level > AV_LOG_WARNING || !avcl) return;
  const AVClass* cls = *static_cast<const AVClass* const*>(avcl);
  void* owner = nullptr;
  if (cls == ffmpeg().avcodec_get_class())
    owner = static_cast<AVCodecContext*>(avcl)->opaque;
  else if (cls == ffmpeg().avformat_get_class())
    owner = static_cast<AVFormatContext*>(avcl)->opaque;
  if (!owner) return;
  char buffer[512];
  int print_prefix = 0;
  ffmpeg().av_log_format_line2(avcl, level, format, args, buffer, sizeof buffer, &print_prefix);
  std::string text(buffer);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.empty() || (level > AV_LOG_ERROR && !names_truncation(text))) return;
  ErrorLines* lines = &static_cast<ReaderState*>(owner)->errors;
  std::lock_guard lock(lines->mutex);
  if (lines->first.empty()) lines->first = std::move(text);
}

}  // namespace

void install_log_callback() {
  static std::once_flag once;
  std::call_once(once, [] { ffmpeg().av_log_set_callback(route_error_lines); });
}

std::string error_text(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  ffmpeg().av_strerror(code, text, sizeof text);
  return text;
}

std::string describe_error(int code, ErrorLines& lines) {
  std::string out = error_text(code);
  const std::string line = lines.take();
  if (!line.empty()) out += "; " + line;
  return out;
}

}  // namespace exactvq
