// Motion's per-pixel core: the sum of absolute values of a blurred difference
// of two reference pictures. An integer: exact in any order and any split of
// the rows, on every backend.
#pragma once

#include <cstdint>

#include "core/picture.h"
#include "metrics/motion/definition.h"

namespace exactvq::motion {

// The blur of definition.h.
inline constexpr int kTaps = EXACTVQ_MOTION_TAPS;
inline constexpr int kRadius = EXACTVQ_MOTION_RADIUS;
inline constexpr int32_t kTap[kTaps] = {EXACTVQ_MOTION_TAP_LIST};

// definition.h's motion_mirror.
inline int mirror_index(int i, int size) { return motion_mirror(i, size); }

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
