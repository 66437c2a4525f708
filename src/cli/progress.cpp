#include "cli/progress.h"

#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace exactvq {

namespace {

// "0:04", "12:30", "1:02:03".
std::string clock_time(double seconds) {
  const auto s = static_cast<int64_t>(std::ceil(std::max(0.0, seconds)));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

ProgressLine::ProgressLine(Sink sink, Clock clock)
    : sink_(std::move(sink)), clock_(std::move(clock)), start_(clock_()), last_draw_(start_) {}

std::string ProgressLine::text(int64_t done, std::optional<int64_t> total, double seconds) {
  const double fps = seconds > 0 ? double(done) / seconds : 0.0;
  if (!total || *total <= 0) return fmt::format("exactvq: {} frames, {:.1f} fps", done, fps);
  const int64_t left = std::max<int64_t>(0, *total - done);
  const int64_t percent = std::min<int64_t>(100, done * 100 / *total);
  std::string out =
      fmt::format("exactvq: {}/{} frames ({}%), {:.1f} fps", done, *total, percent, fps);
  if (fps > 0) out += fmt::format(", {} left", clock_time(double(left) / fps));
  return out;
}

void ProgressLine::update(int64_t done, std::optional<int64_t> total) {
  const auto now = clock_();
  if (now - last_draw_ < kInterval) return;
  last_draw_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  // Back to the start of the line, the new text, then erase what an older, longer
  // text left to its right.
  std::string line = "\r";
  line += text(done, total, seconds);
  line += "\x1b[K";
  sink_(line);
  drawn_ = true;
}

void ProgressLine::clear() {
  if (!drawn_) return;
  sink_("\r\x1b[K");
  drawn_ = false;
}

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

}  // namespace exactvq
