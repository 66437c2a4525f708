#include "core/startup_trace.h"

#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace exactvq::startup {

namespace {

double boottime_seconds() {
  timespec t{};
  clock_gettime(CLOCK_BOOTTIME, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// The process's start on CLOCK_BOOTTIME's scale (field 22 of /proc/self/stat,
// in clock ticks since boot: 10 ms resolution); now where it cannot be read.
double process_start_seconds() {
  std::ifstream in("/proc/self/stat");
  std::string line;
  if (!std::getline(in, line)) return boottime_seconds();
  // The command name (field 2) may hold spaces: count fields after its ')'.
  const size_t close = line.rfind(')');
  if (close == std::string::npos) return boottime_seconds();
  std::istringstream fields(line.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22 && (fields >> field); ++i)
    if (i == 22) return double(std::stoull(field)) / double(sysconf(_SC_CLK_TCK));
  return boottime_seconds();
}

struct Mark {
  std::string stage;
  double seconds;  // CLOCK_BOOTTIME
};

struct Tally {
  std::string what;
  int64_t count = 0;
  double seconds = 0;
};

struct Trace {
  std::mutex mutex;
  double start = process_start_seconds();
  std::vector<Mark> marks;
  std::vector<Tally> tallies;
};

thread_local const char* current_input = "";

Trace& trace() {
  static Trace t;
  return t;
}

}  // namespace

void mark(std::string_view stage) {
  const double now = boottime_seconds();
  Trace& t = trace();
  std::lock_guard lock(t.mutex);
  for (const Mark& m : t.marks)
    if (m.stage == stage) return;
  t.marks.push_back({std::string(stage), now});
}

std::string summary() {
  Trace& t = trace();
  std::lock_guard lock(t.mutex);
  std::string out;
  double before = t.start;
  for (const Mark& m : t.marks) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {:.0f} ms", m.stage, (m.seconds - before) * 1e3);
    before = m.seconds;
  }
  return out;
}

void tally(std::string_view what, double seconds) {
  Trace& t = trace();
  std::lock_guard lock(t.mutex);
  for (Tally& y : t.tallies)
    if (y.what == what) {
      ++y.count;
      y.seconds += seconds;
      return;
    }
  t.tallies.push_back({std::string(what), 1, seconds});
}

std::string tallies() {
  Trace& t = trace();
  std::lock_guard lock(t.mutex);
  std::string out;
  for (const Tally& y : t.tallies) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {} in {:.0f} ms", y.what, y.count, y.seconds * 1e3);
  }
  return out;
}

InputName::InputName(const char* name) : before_(current_input) { current_input = name; }

InputName::~InputName() { current_input = before_; }

const char* input_name() { return current_input; }

}  // namespace exactvq::startup
