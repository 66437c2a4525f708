// The SIMD plane scorer: the scalar reference's streaming pipeline
// (src/ssim/ssim_reference.h), each stage run by its Highway kernel
// (cpu/ssim_kernels.h). Same arguments, same bits as the reference.
#pragma once

#include "core/picture.h"
#include "ssim/fixed_point.h"
#include "ssim/ssim_reference.h"

namespace exactvq::cpu {

// After the horizontal pass, each output row runs either stage by stage
// (vertical_moments for the five moments into a window row, ssim_terms, then
// fixed_point_sum or raster mode's sequential sum) or the fused window_terms
// kernel (vertical pass, term and sums in registers). Same bits either way.
// Default: fused where the best SIMD target is AVX-512 (32 vector registers
// hold the fused loop: 1.36-1.42x faster than stage by stage on a Xeon), stage
// by stage elsewhere (1.26-1.45x faster with AVX2's 16 on an EPYC; Arm not
// measured); bench/CPU_RESULTS.md. EXACTVQ_CPU_FUSED=1 or =0 overrides it. For
// tests and benchmarks: set it here while no scoring runs.
void use_fused_window_terms(bool fused);
bool fused_window_terms();

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
