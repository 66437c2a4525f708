// Where a run's start-up goes: marks at named points, timed from the process's
// start (as the kernel records it, so loading the shared libraries counts).
// `--verbose` says each stage's own time; a GPU run's fixed cost is these
// stages, and they are what its figures name. Marks may come from any thread;
// the first mark of a name is kept, and the summary lists them in the order
// they came (stages of threads running at once interleave: the sum of the
// times up to a mark is its time since the process started).
#pragma once

#include <string>
#include <string_view>

namespace exactvq::startup {

// Records `stage` as ended now.
void mark(std::string_view stage);

// "libraries 41 ms, options 2 ms, ...": each stage's time since the mark
// before it, the first since the process started; empty before any mark.
std::string summary();

// Adds `seconds` to the time spent on `what` (work repeated through the run,
// such as allocations, which no single mark can place).
void tally(std::string_view what, double seconds);

// "gpu picture slabs 12 in 35 ms, ...": each tally's count and total, in
// the order they first came; empty without any.
std::string tallies();

// Names the input that the calling thread opens while this is in scope (its
// reader's marks: "ref probed"); readers opened outside any mark nothing.
class InputName {
 public:
  explicit InputName(const char* name);
  ~InputName();
  InputName(const InputName&) = delete;
  InputName& operator=(const InputName&) = delete;

 private:
  const char* before_;
};

// The calling thread's input name, "" outside any InputName.
const char* input_name();

}  // namespace exactvq::startup
