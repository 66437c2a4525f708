// The window of definition.h for C++: radius, taps and kept weights as
// constants and constexpr functions.
#pragma once

#include <array>
#include <cstdint>

#include "metrics/ssim/definition.h"

namespace exactvq::ssim {

inline constexpr int kRadius = EXACTVQ_SSIM_RADIUS;
inline constexpr int kTaps = EXACTVQ_SSIM_TAPS;
inline constexpr std::array<uint32_t, kTaps> kTap = {EXACTVQ_SSIM_TAP_LIST};
static_assert(
    [] {
      for (int k = 0; k < kTaps; ++k)
        if (kTap[size_t(k)] != ssim_tap(k)) return false;
      return true;
    }(),
    "the tap list and ssim_tap disagree");

// The weight a truncated window keeps at `pos` of a line of `size` samples.
constexpr uint32_t kept_weight(int pos, int size) { return ssim_kept_weight(pos, size); }

// The sum of kept_weight over a line of `size` samples; a plane's Wsum is the
// product of its width's and its height's (each window's weight factors).
constexpr uint64_t line_weight(int size) {
  uint64_t sum = 0;
  for (int i = 0; i < size; ++i) sum += kept_weight(i, size);
  return sum;
}

// Wsum of a width x height plane.
constexpr uint64_t plane_weight_sum(int width, int height) {
  return line_weight(width) * line_weight(height);
}

}  // namespace exactvq::ssim
