// The window of spec/ssim.md: 9 integer taps summing to 256 (Gaussian, sigma 1.5).
#pragma once

#include <array>
#include <cstdint>

namespace exactvq::ssim {

inline constexpr int kRadius = 4;
inline constexpr int kTaps = 2 * kRadius + 1;
inline constexpr std::array<uint32_t, kTaps> kTap = {2, 9, 28, 55, 68, 55, 28, 9, 2};

// Sum of the taps whose sample index pos - kRadius + k lies in [0, size): the
// weight a truncated window keeps at position `pos` of a line of `size` samples.
constexpr uint32_t kept_weight(int pos, int size) {
  uint32_t w = 0;
  for (int k = 0; k < kTaps; ++k) {
    const int i = pos - kRadius + k;
    if (i >= 0 && i < size) w += kTap[k];
  }
  return w;
}

}  // namespace exactvq::ssim
