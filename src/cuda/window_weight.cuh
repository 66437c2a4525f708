// The device twin of ssim/taps.h's kept_weight: the sum of the taps of a
// window at `pos` that fall inside [0, size) (spec/ssim.md: truncated windows).
#pragma once

#include <cstdint>

namespace exactvq::cuda {

inline constexpr int kWindowRadius = 4;

// g[k], the 9-tap Gaussian {2, 9, 28, 55, 68, 55, 28, 9, 2}; 0 outside 0..8.
__host__ __device__ constexpr uint32_t window_tap(int k) {
  return k == 0 || k == 8   ? 2
         : k == 1 || k == 7 ? 9
         : k == 2 || k == 6 ? 28
         : k == 3 || k == 5 ? 55
         : k == 4           ? 68
                            : 0;
}

__device__ __forceinline__ uint32_t kept_weight(int pos, int size) {
  if (pos >= kWindowRadius && pos + kWindowRadius < size) return 256;
  uint32_t w = 0;
#pragma unroll
  for (int k = 0; k < 9; ++k) {
    const int i = pos - kWindowRadius + k;
    if (i >= 0 && i < size) w += window_tap(k);
  }
  return w;
}

}  // namespace exactvq::cuda
