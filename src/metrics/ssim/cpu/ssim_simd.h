// The SIMD plane scorer: the scalar reference's streaming pipeline
// (metrics/ssim/reference.h), each stage run by its Highway kernel
// (ssim_kernels.h). Same arguments, same bits as the reference.
#pragma once

#include "core/picture.h"
#include "metrics/ssim/fixed_point.h"
#include "metrics/ssim/reference.h"

namespace exactvq::cpu {

// After the horizontal pass, each output row runs either stage by stage
// (vertical_moments for the five moments into a window row, then
// terms_exact_sum, or ssim_terms and raster mode's sequential sum: the
// default; two rows at a time away from the top and bottom edges) or the fused
// window_terms kernel (vertical pass, term and sums in registers; chosen with
// EXACTVQ_CPU_FUSED=1, or here). Same bits either way; stage by stage is the
// faster on the machines measured (docs/figures.md). For tests and
// benchmarks: set it here while no scoring runs.
void use_fused_window_terms(bool fused);
bool fused_window_terms();

// `exact` sums run over column strips narrow enough that the rows of moments a
// strip keeps stay in the first-level data cache (the vertical pass reads each
// of them five times); `raster` keeps whole rows, for its order. The strip
// width: `columns`, or the automatic choice for 0 (the default; the environment
// variable EXACTVQ_CPU_STRIP sets it at start). For tests and benchmarks: set it
// while no scoring runs.
void use_strip_columns(int columns);
int strip_columns(int bitdepth);

// The strips `exact` cuts `width` columns into at `bitdepth`: `count` strips of
// equal widths (to a column), strip s covering [x0, x1) counted from the first.
struct StripSplit {
  int width, count;
  static StripSplit of(int width, int bitdepth);
  int x0(int s) const { return int(int64_t{width} * s / count); }
  int x1(int s) const { return x0(s + 1); }
};

// The `exact` partial sum over `region`: equal to ssim::exact_sum.
ssim::ExactSum exact_sum(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                         ssim::Rect region);

// The `exact` score of a whole plane: equal to ssim::score_exact.
double score_exact(const PlaneView& ref, const PlaneView& dist, int bitdepth);

// The `raster` sum of a whole plane's terms (add_in_raster_order), equal to
// ssim::raster_sum; everything before the sum is vectorised.
double raster_sum(const PlaneView& ref, const PlaneView& dist, int bitdepth);

// The `raster` score of a whole plane, libvmaf's sequential binary64 sum:
// equal to ssim::score_raster. Everything before the sum is vectorised; the
// sum itself adds the terms one by one in raster order.
double score_raster(const PlaneView& ref, const PlaneView& dist, int bitdepth);

}  // namespace exactvq::cpu
