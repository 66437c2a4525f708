// The benches' clock and a way to time the routines of a table of function
// pointers (adm's RowKernels): each call's ticks go to a slot of the bench's.
#pragma once

#include <chrono>
#include <cstdint>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace exactvq::bench {

// The TSC on x86 (cycles at its fixed rate), else steady_clock's nanoseconds.
inline uint64_t ticks() {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
#endif
}

// call(a...) runs (kTable.*M)(a...) and hands the ticks it took to Slot::add.
template <auto& kTable, auto M, typename Slot>
struct TimedMember {
  template <typename... A>
  static auto call(A... a) {
    const uint64_t start = ticks();
    if constexpr (std::is_void_v<decltype((kTable.*M)(a...))>) {
      (kTable.*M)(a...);
      Slot::add(ticks() - start);
    } else {
      auto r = (kTable.*M)(a...);
      Slot::add(ticks() - start);
      return r;
    }
  }
};

}  // namespace exactvq::bench
