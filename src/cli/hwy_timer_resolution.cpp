// Highway's shared library measures its timer's resolution while it is loaded (a
// static of its nanobenchmark: about 3 ms of reading the time-stamp counter, every
// run) for benchmarks exactvq never runs. This definition, exported from the
// executable (CMakeLists.txt), is found first when the library's start-up code
// calls the function through its procedure linkage table, so the measurement is
// skipped. A Highway built to bind the call inside itself still measures: the
// run then only pays the 3 ms again.
#include <cstdint>

#include <hwy/nanobenchmark.h>

namespace hwy::platform {

uint64_t TimerResolution() { return 1; }  // one tick: nothing in exactvq reads it

}  // namespace hwy::platform
