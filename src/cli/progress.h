// The progress line on a terminal: frames done, the total when known, frames per
// second and the time left, redrawn in place at most ten times a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace exactvq {

class ProgressLine {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  using Sink = std::function<void(std::string_view)>;

  static constexpr std::chrono::milliseconds kInterval{100};

  // Writes through `sink` (standard error in the CLI); times with `clock`. The run
  // is taken to start now.
  explicit ProgressLine(Sink sink, Clock clock = &std::chrono::steady_clock::now);
  ~ProgressLine() { clear(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Redraws the line when kInterval has passed since the last drawing (or since the
  // start, so a run shorter than that draws nothing).
  void update(int64_t done, std::optional<int64_t> total);

  // Erases the line when one is drawn, so that the next text starts a clean line.
  void clear();

  // "exactvq: 120/300 frames (40%), 45.3 fps, 0:04 left", or without the total
  // "exactvq: 120 frames, 45.3 fps".
  static std::string text(int64_t done, std::optional<int64_t> total, double seconds);

 private:
  Sink sink_;
  Clock clock_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  bool drawn_ = false;
};

// Whether standard error is a terminal (where the progress line belongs).
bool stderr_is_terminal();

}  // namespace exactvq
