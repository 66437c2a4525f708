// The scalar reference of spec/ssim.md: the readable twin every backend is tested against.
//
// It streams: horizontal moments of at most nine rows live in a ring, so memory
// grows with the width, never with the frame.
#pragma once

#include "core/picture.h"
#include "metrics/ssim/fixed_point.h"

namespace exactvq::ssim {

// Output pixels [x0, x1) x [y0, y1) of a plane; the windows still read the
// samples around them, so any partition of a plane into rects gives, merged,
// exactly the whole plane's ExactSum.
struct Rect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

inline Rect whole(const PlaneView& p) { return {0, 0, p.width, p.height}; }

// The `exact` partial sum over `region` (ref and dist: same size and depth).
ExactSum exact_sum(const PlaneView& ref, const PlaneView& dist, int bitdepth, Rect region);

// The `exact` score of a whole plane.
double score_exact(const PlaneView& ref, const PlaneView& dist, int bitdepth);

// The `raster` sum of a whole plane: its terms added in raster order
// (add_in_raster_order).
double raster_sum(const PlaneView& ref, const PlaneView& dist, int bitdepth);

// The `raster` score of a whole plane: raster_sum / Wsum.
double score_raster(const PlaneView& ref, const PlaneView& dist, int bitdepth);

}  // namespace exactvq::ssim
