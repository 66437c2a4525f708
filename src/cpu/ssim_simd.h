// The SIMD plane scorer: the scalar reference's streaming pipeline
// (src/ssim/ssim_reference.h), each stage run by its Highway kernel
// (cpu/ssim_kernels.h). Same arguments, same bits as the reference.
#pragma once

#include "core/picture.h"
#include "ssim/fixed_point.h"
#include "ssim/ssim_reference.h"

namespace exactvq::cpu {

// The `exact` partial sum over `region`: equal to ssim::exact_sum.
ssim::ExactSum exact_sum(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                         ssim::Rect region);

// The `exact` score of a whole plane: equal to ssim::score_exact.
double score_exact(const PlaneView& ref, const PlaneView& dist, int bitdepth);

// The `raster` score of a whole plane, libvmaf's sequential binary64 sum:
// equal to ssim::score_raster. Everything before the sum is vectorised; the
// sum itself adds the terms one by one in raster order.
double score_raster(const PlaneView& ref, const PlaneView& dist, int bitdepth);

}  // namespace exactvq::cpu
