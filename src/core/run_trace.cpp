#include "core/run_trace.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace exactvq::run_trace {

namespace {

struct Event {
  std::string name;
  int64_t index;
  int thread;
  int64_t start_ns, end_ns;
};

struct Recording {
  std::mutex mutex;
  std::vector<Event> events;
  std::chrono::steady_clock::time_point origin;
  int threads = 0;  // threads numbered so far in this recording
  int generation = 0;  // which recording: a thread numbered in an earlier one is numbered anew
};

std::atomic<bool> g_active{false};

Recording& recording() {
  static Recording r;
  return r;
}

thread_local const Span* t_innermost = nullptr;
thread_local int t_thread = -1;
thread_local int t_generation = -1;

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now() - recording().origin)
      .count();
}

// This thread's number in the current recording (0 for start()'s thread).
int thread_number(Recording& r) {
  if (t_generation != r.generation) {
    t_generation = r.generation;
    t_thread = r.threads++;
  }
  return t_thread;
}

}  // namespace

void start() {
  Recording& r = recording();
  std::lock_guard lock(r.mutex);
  r.events.clear();
  r.threads = 0;
  ++r.generation;
  r.origin = std::chrono::steady_clock::now();
  thread_number(r);
  g_active.store(true, std::memory_order_release);
}

void stop() { g_active.store(false, std::memory_order_release); }

bool active() { return g_active.load(std::memory_order_acquire); }

void write(std::ostream& out) {
  Recording& r = recording();
  std::lock_guard lock(r.mutex);
  nlohmann::json events = nlohmann::json::array();
  for (int t = 0; t < r.threads; ++t)
    events.push_back({{"ph", "M"},
                      {"name", "thread_name"},
                      {"pid", 1},
                      {"tid", t},
                      {"args", {{"name", t == 0 ? std::string("main") : "thread " + std::to_string(t)}}}});
  for (const Event& e : r.events) {
    nlohmann::json event = {{"ph", "X"},
                            {"name", e.name},
                            {"pid", 1},
                            {"tid", e.thread},
                            {"ts", double(e.start_ns) / 1e3},
                            {"dur", double(e.end_ns - e.start_ns) / 1e3}};
    if (e.index >= 0) event["args"] = {{"index", e.index}};
    events.push_back(std::move(event));
  }
  out << nlohmann::json{{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}}.dump() << '\n';
}

Span::Span(const char* name, int64_t index) : name_(name), index_(index) {
  if (!active()) return;
  outer_ = t_innermost;
  t_innermost = this;
  start_ns_ = now_ns();
}

Span::~Span() {
  if (start_ns_ < 0) return;
  t_innermost = outer_;
  if (!active()) return;
  const int64_t end = now_ns();
  Recording& r = recording();
  std::lock_guard lock(r.mutex);
  r.events.push_back({name_, index_, thread_number(r), start_ns_, end});
}

const char* current_name() { return t_innermost ? t_innermost->name_ : nullptr; }

}  // namespace exactvq::run_trace
