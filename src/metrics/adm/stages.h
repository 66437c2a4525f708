// ADM's stages one output at a time, as the CUDA engine computes them: the
// per-sample definition (definition.h; the decoupling in native binary64,
// pixel.h, or on softfp, softfp_decouple.h) on bands stored tightly, indexed
// by (row, column), and the plan of a scale (its regions, shifts and factors,
// as the driver in reference.cpp forms them). The CUDA kernels call these with one thread an
// output; tests/adm run them on the host in the same arrangement against the reference
// (stages_test.cpp), so that the engine's indexing, regions and shifts are checked on machines
// without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>

#include "metrics/adm/pixel.h"
#include "metrics/adm/softfp_decouple.h"

namespace exactvq::adm::stages {

// Rows [top, bottom) and columns [left, right) (band.h's Region).
struct Rect {
  int top = 0, bottom = 0, left = 0, right = 0;
};

// Everything a scale's stages take besides the bands: the regions and the
// shifts of band.h and reference.cpp.
struct ScalePlan {
  int width = 0, height = 0;  // the scale's bands
  Rect filter, scored;
  // Denominator: scale 0 rounds and shifts each row by den_row_shift (no cube
  // shift); scales 1..3 shift each term by den_cube_shift, then each row.
  int den_cube_shift = 0;
  uint64_t den_cube_round = 0;
  int den_row_shift = 0;
  uint64_t den_row_round = 0;
  // CSF and masking: the factors (Q21 / Q23 at scale 0, Q32 after), the
  // cube shifts, and each row's rounding and (arithmetic) shift.
  uint32_t factor[3] = {};
  int cube_shift[3] = {};
  int64_t cube_round[3] = {};
  int mask_row_shift = 0;
  int64_t mask_row_round = 0;
};

// Scale 0's DWT output (i, j) of a width x height plane: a, h, v, d into out[0..3].
template <typename Sample>
EXACTVQ_ADM_HD void dwt0_at(const Sample* plane, int width, int height, int bitdepth, int i, int j,
                            int16_t out[4]) {
  int rows[4], cols[4];
  for (int k = 0; k < 4; ++k) {
    rows[k] = adm_dwt_mirror(2 * i - 1 + k, height);
    cols[k] = adm_dwt_mirror(2 * j - 1 + k, width);
  }
  int16_t lo[4], hi[4];
  for (int c = 0; c < 4; ++c) {
    int64_t s[4];
    for (int k = 0; k < 4; ++k) s[k] = plane[size_t(rows[k]) * size_t(width) + size_t(cols[c])];
    lo[c] = adm_dwt0_vertical_lo(s, bitdepth);
    hi[c] = adm_dwt0_vertical_hi(s, bitdepth);
  }
  out[0] = adm_dwt0_horizontal_low(lo);   // a
  out[1] = adm_dwt0_horizontal_low(hi);   // h
  out[2] = adm_dwt0_horizontal_high(lo);  // v
  out[3] = adm_dwt0_horizontal_high(hi);  // d
}

// Scales 1..3: output (i, j) of the DWT of a width x height a band (int16 from
// scale 0, int32 after): a, h, v, d into out[0..3].
template <typename Src>
EXACTVQ_ADM_HD void dwt_s123_at(const Src* band, int width, int height, int scale, int i, int j,
                                int32_t out[4]) {
  int rows[4], cols[4];
  for (int k = 0; k < 4; ++k) {
    rows[k] = adm_dwt_mirror(2 * i - 1 + k, height);
    cols[k] = adm_dwt_mirror(2 * j - 1 + k, width);
  }
  const int64_t v_round = adm_dwt_s123_vertical_round(scale);
  const int v_shift = adm_dwt_s123_vertical_shift(scale);
  int32_t lo[4], hi[4];
  for (int c = 0; c < 4; ++c) {
    int32_t x[4];
    for (int k = 0; k < 4; ++k)
      x[k] = int32_t(band[size_t(rows[k]) * size_t(width) + size_t(cols[c])]);
    lo[c] = adm_dwt_s123_tap(x, true, v_round, v_shift);
    hi[c] = adm_dwt_s123_tap(x, false, v_round, v_shift);
  }
  const int64_t h_round = adm_dwt_s123_horizontal_round(scale);
  const int h_shift = adm_dwt_s123_horizontal_shift(scale);
  out[0] = adm_dwt_s123_tap(lo, true, h_round, h_shift);   // a
  out[1] = adm_dwt_s123_tap(hi, true, h_round, h_shift);   // h
  out[2] = adm_dwt_s123_tap(lo, false, h_round, h_shift);  // v
  out[3] = adm_dwt_s123_tap(hi, false, h_round, h_shift);  // d
}

// One sample's decoupling, its binary64 steps in the gain limit's number type:
// double (native, pixel.h) or softfp (emulated on integers, softfp_decouple.h).
EXACTVQ_ADM_HD void decouple_sample(const int16_t o[3], const int16_t t[3], double gain_limit,
                                    int16_t r[3], int16_t a[3]) {
  pixel::decouple_s0(o, t, gain_limit, r, a);
}
EXACTVQ_ADM_HD void decouple_sample(const int32_t o[3], const int32_t t[3], double gain_limit,
                                    int32_t r[3], int32_t a[3]) {
  pixel::decouple_s123(o, t, gain_limit, r, a);
}
EXACTVQ_ADM_HD void decouple_sample(const int16_t o[3], const int16_t t[3], softfp gain_limit,
                                    int16_t r[3], int16_t a[3]) {
  adm_softfp_decouple_s0(o, t, gain_limit, r, a);
}
EXACTVQ_ADM_HD void decouple_sample(const int32_t o[3], const int32_t t[3], softfp gain_limit,
                                    int32_t r[3], int32_t a[3]) {
  adm_softfp_decouple_s123(o, t, gain_limit, r, a);
}

// The decoupling of sample `at` of the detail bands ref[0..2], dis[0..2] (h, v, d);
// Number is double or softfp (decouple_sample).
template <typename T, typename Number>
EXACTVQ_ADM_HD void decouple_at(const T* const ref[3], const T* const dis[3], size_t at,
                                Number gain_limit, T* const restored[3], T* const additive[3]) {
  T o[3], t[3], r[3], a[3];
  for (int b = 0; b < 3; ++b) {
    o[b] = ref[b][at];
    t[b] = dis[b][at];
  }
  decouple_sample(o, t, gain_limit, r, a);
  for (int b = 0; b < 3; ++b) {
    restored[b][at] = r[b];
    additive[b][at] = a[b];
  }
}

// The CSF of sample `at` of src[0..2] into csf and flat (reference.cpp's
// numerator_sums_s0: shifts 15, 15, 17 and libvmaf's rounding 65535, not 65536, for d).
template <typename T>
EXACTVQ_ADM_HD void csf_at(const T* const src[3], size_t at, const uint32_t factor[3],
                           T* const csf[3], T* const flat[3]) {
  for (int b = 0; b < 3; ++b) {
    if constexpr (sizeof(T) == 2)
      adm_csf_s0(src[b][at], uint16_t(factor[b]), b == 2 ? 17 : 15, b == 2 ? 65535 : 16384,
                 csf[b] + at, flat[b] + at);
    else
      adm_csf_s123(src[b][at], factor[b], csf[b] + at, flat[b] + at);
  }
}

// The masking's cube terms of sample (i, j) of src[0..2] against the masker
// csf, flat (width x height bands; the 3x3 neighbourhood mirrored at the edges).
template <typename T>
EXACTVQ_ADM_HD void masking_terms_at(const T* const src[3], const T* const csf[3],
                                     const T* const flat[3], int width, int height, int i, int j,
                                     const ScalePlan& p, int64_t out[3]) {
  const int above = i == 0 ? 1 : i - 1;
  const int below = i == height - 1 ? height - 1 : i + 1;
  const int jl = j == 0 ? 1 : j - 1;
  const int jr = j == width - 1 ? width - 1 : j + 1;
  const size_t row = size_t(i) * size_t(width), ra = size_t(above) * size_t(width),
               rb = size_t(below) * size_t(width);
  int32_t threshold_s0 = 0;
  uint32_t threshold_s123 = 0;
  for (int b = 0; b < 3; ++b) {
    const T* fl = flat[b];
    const int32_t n = adm_neighbour_sum(
        fl[ra + size_t(jl)], fl[ra + size_t(j)], fl[ra + size_t(jr)], fl[row + size_t(jl)],
        fl[row + size_t(jr)], fl[rb + size_t(jl)], fl[rb + size_t(j)], fl[rb + size_t(jr)]);
    if constexpr (sizeof(T) == 2)
      threshold_s0 += adm_threshold_part_s0(csf[b][row + size_t(j)], n);
    else
      threshold_s123 += adm_threshold_part_s123(csf[b][row + size_t(j)], n);
  }
  for (int b = 0; b < 3; ++b) {
    const T x = src[b][row + size_t(j)];
    if constexpr (sizeof(T) == 2)
      out[b] = adm_masking_term_s0(x, uint16_t(p.factor[b]), threshold_s0, b, p.cube_shift[b],
                                   p.cube_round[b]);
    else
      out[b] =
          adm_masking_term_s123(x, p.factor[b], threshold_s123, p.cube_shift[b], p.cube_round[b]);
  }
}

// The denominator's terms of sample `at` of the reference's detail bands ref[0..2].
template <typename T>
EXACTVQ_ADM_HD void denominator_terms_at(const T* const ref[3], size_t at, int scale,
                                         const ScalePlan& p, uint64_t out[3]) {
  for (int b = 0; b < 3; ++b) {
    if constexpr (sizeof(T) == 2)
      out[b] = adm_denominator_term_s0(ref[b][at]);
    else
      out[b] = adm_denominator_term_s123(ref[b][at], adm_denominator_square_shift(scale),
                                         p.den_cube_shift, p.den_cube_round);
  }
}

// A row's sum (modulo 2^64) as it enters the frame's total: rounded and shifted.
EXACTVQ_ADM_HD int64_t masking_row_total(uint64_t row_sum, const ScalePlan& p) {
  return adm_masking_row_total(row_sum, p.mask_row_round, p.mask_row_shift);
}
EXACTVQ_ADM_HD uint64_t denominator_row_total(uint64_t row_sum, const ScalePlan& p) {
  return adm_denominator_row_total(row_sum, p.den_row_round, p.den_row_shift);
}

}  // namespace exactvq::adm::stages
