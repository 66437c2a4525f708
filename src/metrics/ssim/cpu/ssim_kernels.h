// The SIMD stages of spec/ssim.md, one Highway kernel per stage, each the twin
// of a step of the scalar reference (metrics/ssim/reference.cpp) and tested
// against it bit for bit (tests/metrics/ssim/, tests/twins/).
//
// Lane widths follow the spec's bounds at b bits (the taps sum to 2^8):
//   per sample         s, d < 2^b;  s*s, s*d, d*d < 2^2b <= 2^32       -> uint32
//   horizontal         m, n < 2^(b+8);  xx, xy, yy < 2^(2b+8)         -> uint32; uint64 if b > 12
//   vertical (window)  mux, muy < 2^(b+16);  x2, xy, y2 < 2^(2b+16)   -> uint32; uint64 if b > 8
#pragma once

#include <cstddef>
#include <cstdint>

#include "metrics/ssim/fixed_point.h"
#include "metrics/ssim/term.h"

namespace exactvq::cpu {

// The five moments of one row: a plane row's horizontal sums, or a window row
// after the vertical pass. Index i is output column x0 + i.
template <typename Wide>
struct MomentRow {
  uint32_t* m;
  uint32_t* n;
  Wide* xx;
  Wide* xy;
  Wide* yy;
};

// Scratch a horizontal pass needs for output columns [x0, x1): five arrays of
// the columns its windows read, each a whole number of 64-byte lines, so that
// they keep the alignment of the scratch (see horizontal_scratch_stride).
inline size_t horizontal_scratch_stride(int x0, int x1) {
  return (size_t(x1 - x0 + 8) + 15) / 16 * 16;
}
inline size_t horizontal_scratch_size(int x0, int x1) {
  return 5 * horizontal_scratch_stride(x0, x1);
}

// Horizontal moments of output columns [x0, x1) of one row pair (`width`
// samples each); windows truncated at the row's ends. `scratch` holds
// horizontal_scratch_size(x0, x1) values (best aligned to 64 bytes: the
// stores into it then split no cache line). The uint32 outputs need b <= 12.
void horizontal_moments(const uint8_t* ref, const uint8_t* dist, int width, int x0, int x1,
                        uint32_t* scratch, MomentRow<uint32_t> out);
void horizontal_moments(const uint16_t* ref, const uint16_t* dist, int width, int x0, int x1,
                        uint32_t* scratch, MomentRow<uint32_t> out);
void horizontal_moments(const uint16_t* ref, const uint16_t* dist, int width, int x0, int x1,
                        uint32_t* scratch, MomentRow<uint64_t> out);

// horizontal_moments of 9 to 11 bits, but with xx + yy in out.xx and nothing
// in out.yy (which may be null): see ssim_simd.cpp for why the sum serves.
void horizontal_moments_summed_squares(const uint16_t* ref, const uint16_t* dist, int width, int x0,
                                       int x1, uint32_t* scratch, MomentRow<uint32_t> out);

// The vertical pass of one quantity: out[i] = sum over the taps k whose row
// lies in the plane (rows[k] != nullptr) of g[k] * rows[k][i], for i < n.
// uint32 -> uint32 needs totals below 2^32 (mux, muy; x2, xy, y2 at 8 bits).
void vertical_moments(const uint32_t* const* rows, uint32_t* out, size_t n);
void vertical_moments(const uint32_t* const* rows, uint64_t* out, size_t n);
void vertical_moments(const uint64_t* const* rows, uint64_t* out, size_t n);

// Two consecutive window rows whose ten rows all lie in the plane: out0[i] =
// sum g[k] * rows[k][i] and out1[i] = sum g[k] * rows[k + 1][i], k = 0..8,
// i < n, each row loaded once for both (vertical_moments twice, same bits).
void vertical_moments_pair(const uint32_t* const* rows, uint32_t* out0, uint32_t* out1, size_t n);
void vertical_moments_pair(const uint32_t* const* rows, uint64_t* out0, uint64_t* out1, size_t n);
void vertical_moments_pair(const uint64_t* const* rows, uint64_t* out0, uint64_t* out1, size_t n);

// The binary64 term of spec/ssim.md for n windows of one output row:
// out[i] = ssim_term(mux[i], muy[i], x2[i], xy[i], y2[i], w = column_weight[i] * row_weight).
template <typename Wide>
struct WindowRow {
  const uint32_t* mux;
  const uint32_t* muy;
  const Wide* x2;
  const Wide* xy;
  const Wide* y2;
};
// 32-bit window moments: 8-bit samples only (the kernel relies on mux, muy < 2^24).
void ssim_terms(WindowRow<uint32_t> window, const uint32_t* column_weight, uint32_t row_weight,
                size_t n, const ssim::TermConstants& k, double* out);
void ssim_terms(WindowRow<uint64_t> window, const uint32_t* column_weight, uint32_t row_weight,
                size_t n, const ssim::TermConstants& k, double* out);

// The `exact` sum (fixed_point_sum) of the terms ssim_terms gives for
// row_count window rows, all of weight row_weight in column i times
// column_weight[i]: the terms are summed as they are formed, not stored.
ssim::int128 terms_exact_sum(const WindowRow<uint32_t>* rows, int row_count,
                             const uint32_t* column_weight, uint32_t row_weight, size_t n,
                             const ssim::TermConstants& k);
ssim::int128 terms_exact_sum(const WindowRow<uint64_t>* rows, int row_count,
                             const uint32_t* column_weight, uint32_t row_weight, size_t n,
                             const ssim::TermConstants& k);

// The `exact` sum of n terms: sum of round_half_even(term * 2^64), for
// |term| < 2^32 (terms lie within +-2^17).
ssim::int128 fixed_point_sum(const double* terms, size_t n);

// The vertical pass, the term and the sum fused, for one output row: the window
// moments stay in registers. rows.m[k] ... rows.yy[k] are the horizontal moment
// rows under tap k (nullptr outside the plane). Writes the n terms to `terms`
// unless it is null, and returns their `exact` sum (fixed_point_sum of them).
// Unless `raster_sum` is null, also adds the terms one at a time, left to
// right, to *raster_sum in binary64 (raster mode's sequential sum).
template <typename Wide>
struct TapRows {
  const uint32_t* m[9];
  const uint32_t* n[9];
  const Wide* xx[9];
  const Wide* xy[9];
  const Wide* yy[9];
};
// 8 bits: every window moment fits 32 bits.
ssim::int128 window_terms(const TapRows<uint32_t>& rows, const uint32_t* column_weight,
                          uint32_t row_weight, size_t n, const ssim::TermConstants& k,
                          double* terms, double* raster_sum = nullptr);
// 9 to 12 bits: 32-bit horizontal moments, 64-bit window ones.
ssim::int128 window_terms_widening(const TapRows<uint32_t>& rows, const uint32_t* column_weight,
                                   uint32_t row_weight, size_t n, const ssim::TermConstants& k,
                                   double* terms, double* raster_sum = nullptr);
// 13 to 16 bits.
ssim::int128 window_terms(const TapRows<uint64_t>& rows, const uint32_t* column_weight,
                          uint32_t row_weight, size_t n, const ssim::TermConstants& k,
                          double* terms, double* raster_sum = nullptr);

}  // namespace exactvq::cpu
