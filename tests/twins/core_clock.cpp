#include "core_clock.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

namespace exactvq::twins {

double core_clock_ghz(double seconds) {
#if defined(__x86_64__)
  using clock = std::chrono::steady_clock;
  std::vector<double> rounds;
  // Register operands: some cores fold chains of immediate additions at rename.
  uint64_t x = 0, step = uint64_t(seconds * 1e3) | 1;
  for (int round = 0; round < 5; ++round) {
    const auto start = clock::now();
    double elapsed = 0;
    uint64_t additions = 0;
    do {
      for (int i = 0; i < 10000; ++i) {
#define EXACTVQ_ADD10                                                      \
  "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t" \
  "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
        asm volatile(EXACTVQ_ADD10 EXACTVQ_ADD10 EXACTVQ_ADD10 EXACTVQ_ADD10 EXACTVQ_ADD10
                         EXACTVQ_ADD10 EXACTVQ_ADD10 EXACTVQ_ADD10 EXACTVQ_ADD10 EXACTVQ_ADD10
                     : "+r"(x)
                     : "r"(step));
#undef EXACTVQ_ADD10
      }
      additions += 10000 * 100;
      elapsed = std::chrono::duration<double>(clock::now() - start).count();
    } while (elapsed < seconds / 5);
    rounds.push_back(double(additions) / elapsed / 1e9);
  }
  std::sort(rounds.begin(), rounds.end());
  return rounds[2];
#else
  (void)seconds;
  return 0;
#endif
}

}  // namespace exactvq::twins
