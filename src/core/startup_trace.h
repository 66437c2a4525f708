// Where a run's start-up goes: marks at named points, timed from the process's
// start (as the kernel records it, so loading the shared libraries counts).
// `--verbose` says each stage's own time; a GPU run's fixed cost is these
// stages, and they are what its figures name. Marks come from the thread that
// runs the job; the first mark of a name is kept.
#pragma once

#include <string>

namespace exactvq::startup {

// Records `stage` as ended now (a string literal: kept by pointer).
void mark(const char* stage);

// "libraries 41 ms, options 2 ms, ...": each stage's time since the mark
// before it, the first since the process started; empty before any mark.
std::string summary();

}  // namespace exactvq::startup
