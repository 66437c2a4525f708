// A run's timeline, for finding where cores idle: named spans on every thread,
// written as Chrome's trace-event JSON (open it in Perfetto or chrome://tracing,
// or summarise it with bench/run_trace_summary.py). Recording is off until
// start(); off, a span costs one atomic load. One run records at a time (start()
// while another records starts it anew). A thread pool's tasks take the
// name of the span their loop was made in (thread_pool.cpp), so a feature's
// frame tasks carry the feature's name on whichever thread runs them.
#pragma once

#include <cstdint>
#include <ostream>

namespace exactvq::run_trace {

// Starts recording, forgetting spans recorded before; the calling thread is
// named "main".
void start();
// Stops recording; spans still open then are not recorded.
void stop();
bool active();
// The spans recorded between start() and stop(), as trace-event JSON.
void write(std::ostream& out);

// The innermost span's name on this thread, or nullptr outside any.
const char* current_name();

// The time from construction to destruction on this thread, as `name` (kept by
// pointer while the span lasts; copied when it ends) and `index` (a batch or
// frame number; -1 for none).
class Span {
 public:
  explicit Span(const char* name, int64_t index = -1);
  ~Span();
  Span(const Span&) = delete;
  Span& operator=(const Span&) = delete;

 private:
  friend const char* current_name();
  const char* name_;
  int64_t index_;
  int64_t start_ns_ = -1;  // -1: not recording
  const Span* outer_ = nullptr;
};

}  // namespace exactvq::run_trace
