// Motion's per-pixel core: the sum of absolute values of a blurred difference
// of two reference pictures. An integer: exact in any order and any split of
// the rows, on every backend.
#pragma once

#include <cstdint>

#include "core/picture.h"

namespace exactvq::motion {

// libvmaf's 5-tap blur (integer_motion.h), taps summing to 65536.
inline constexpr int kTaps = 5;
inline constexpr int kRadius = 2;
inline constexpr int32_t kTap[kTaps] = {3571, 16004, 26386, 16004, 3571};

// The index a tap reads at position `i` of a line of `size` samples: mirrored
// about the edge samples (-1 -> 1, size -> size - 2), as libvmaf mirrors for
// size >= 3. Smaller lines, where libvmaf reads outside the picture, reflect
// again until inside (size 1 reads its one sample).
inline int mirror_index(int i, int size) {
  if (size == 1) return 0;
  for (;;) {
    if (i < 0) i = -i;
    else if (i >= size) i = 2 * size - i - 2;
    else return i;
  }
}

// The kTaps rows of `prev` and `cur` that row y's vertical blur reads, mirrored.
template <typename Sample>
void tap_rows(const PlaneView& prev, const PlaneView& cur, int y, const Sample* p[kTaps],
              const Sample* c[kTaps]) {
  for (int k = 0; k < kTaps; ++k) {
    const int row = mirror_index(y - kRadius + k, cur.height);
    p[k] = prev.row<Sample>(row);
    c[k] = cur.row<Sample>(row);
  }
}

// Rows [y0, y1) of the SAD between `prev` and `cur` (same size; 8..16 bits):
// per row, the vertical blur of prev - cur rounded and shifted right by
// `bitdepth`, then the horizontal blur of that row rounded and shifted right
// by 16, and the absolute values summed. Sum over row ranges = the whole SAD.
uint64_t sad_reference(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1);

// The same sum by the fastest SIMD kernel this CPU runs (Highway,
// cpu/sad_simd.cpp), bit for bit.
uint64_t sad(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1);

}  // namespace exactvq::motion
