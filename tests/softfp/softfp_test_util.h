// Shared by the softfp host tests: the path counters the header reports into,
// bit comparison with native binary64, and the random operand count.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

// Every translation unit of the test binary counts into the same array.
inline uint64_t softfp_path_hits[64];
#define SOFTFP_PATH(id) (++softfp_path_hits[id])
#include "softfp/softfp.h"

namespace exactvq::softfp_test {

inline uint64_t bits_of(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

inline double double_of(uint64_t b) {
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

inline softfp soft(double v) { return softfp_from_bits(bits_of(v)); }
inline double native(softfp v) { return double_of(softfp_to_bits(v)); }

// Random operand pairs per operation, all depths together: EXACTVQ_SOFTFP_PAIRS
// overrides the CI default (10^7, a few seconds on one core).
inline uint64_t random_pair_count() {
  const char* env = std::getenv("EXACTVQ_SOFTFP_PAIRS");
  return env ? std::strtoull(env, nullptr, 10) : 10'000'000;
}

// The seed: EXACTVQ_SOFTFP_SEED replays a failure (every failure prints its seed).
inline uint64_t seed() {
  const char* env = std::getenv("EXACTVQ_SOFTFP_SEED");
  return env ? std::strtoull(env, nullptr, 10) : 20261130;
}

inline const char* path_name(int id) {
  static const char* const kNames[SOFTFP_PATH_COUNT] = {
      "add zero operand", "add same sign", "sub near (gap 0/1)", "sub far (gap >= 2)",
      "sub to zero", "add all sticky (gap >= 64)", "mul zero", "mul power of two",
      "mul general", "div zero", "div general", "div digit corrected down",
      "div digit corrected up", "div digit 0", "div digit radix-1", "round up", "round tie",
      "round carry", "term integer shortcut", "term general", "fixed shift left",
      "fixed rounded", "fixed to zero", "add integer", "term power-of-two weight", "term fast",
      "fast A/C/D round up", "fast A/C/D round tie", "fast A/C/D round carry", "fast B round up",
      "fast B round tie", "fast B round carry", "fast mul round up", "fast mul round tie",
      "fast mul round carry", "fast div round up", "fast div round tie", "fast div carry",
      "fast div digit 1 corrected", "fast div digit 2 corrected", "fast div dividend doubled"};
  return id >= 0 && id < SOFTFP_PATH_COUNT ? kNames[id] : "?";
}

}  // namespace exactvq::softfp_test
