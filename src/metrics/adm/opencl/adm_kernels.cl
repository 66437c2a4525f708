// libvmaf's integer ADM on an OpenCL device without fp64, from the shared
// definition (metrics/adm/definition.h) with the decoupling's binary64 steps
// in softfp (softfp_decouple.h): every sample equals the CPU reference's. A
// work-item computes one output of a stage; the masking and denominator give
// each scored row to one work-group, which sums the row's terms (modulo 2^64,
// as libvmaf's int64 and uint64 accumulators, any order), rounds and shifts
// the sum as libvmaf shifts each row and writes it to rows[base + 3 * row +
// orientation]; the host adds the rows. Bands are stored tightly, band after band (`band` samples each):
// a DWT output holds a, h, v, d; the decoupling's and CSF's outputs h, v, d.
// Embedded at build time.
#include "metrics/adm/softfp_decouple.h"

#define ADM_ROW_ITEMS 64  // the largest work-group of the row kernels (a power of two)

static inline long adm_plane_sample(__global const uchar* p, size_t i, int bytes) {
  return bytes ? (long)p[i] : (long)((__global const ushort*)p)[i];
}

// ---- DWT, one work-item an output (i, j) of the four subbands ----

// Scale 0 from the luma plane (8-bit samples when `bytes`, else 16-bit).
__kernel void adm_dwt0(__global const uchar* plane, int width, int height, int bytes, int bitdepth,
                       __global short* out, int out_width, int out_height) {
  const int j = (int)get_global_id(0), i = (int)get_global_id(1);
  if (j >= out_width || i >= out_height) return;
  int rows[4], cols[4];
  for (int k = 0; k < 4; ++k) {
    rows[k] = adm_dwt_mirror(2 * i - 1 + k, height);
    cols[k] = adm_dwt_mirror(2 * j - 1 + k, width);
  }
  short lo[4], hi[4];
  for (int c = 0; c < 4; ++c) {
    long s[4];
    for (int k = 0; k < 4; ++k) s[k] = adm_plane_sample(plane, (size_t)rows[k] * (size_t)width + (size_t)cols[c], bytes);
    lo[c] = adm_dwt0_vertical_lo(s, bitdepth);
    hi[c] = adm_dwt0_vertical_hi(s, bitdepth);
  }
  const size_t band = (size_t)out_width * (size_t)out_height, at = (size_t)i * (size_t)out_width + (size_t)j;
  out[at] = adm_dwt0_horizontal_low(lo);               // a
  out[band + at] = adm_dwt0_horizontal_low(hi);        // h
  out[2 * band + at] = adm_dwt0_horizontal_high(lo);   // v
  out[3 * band + at] = adm_dwt0_horizontal_high(hi);   // d
}

// Scales 1..3 from the 4 x 4 window x[row tap][column tap] of the previous a band.
static inline void adm_dwt_s123_window(int x[4][4], int scale, __global int* out, size_t band, size_t at) {
  const long v_round = adm_dwt_s123_vertical_round(scale), h_round = adm_dwt_s123_horizontal_round(scale);
  const int v_shift = adm_dwt_s123_vertical_shift(scale), h_shift = adm_dwt_s123_horizontal_shift(scale);
  int lo[4], hi[4];
  for (int c = 0; c < 4; ++c) {
    const int column[4] = {x[0][c], x[1][c], x[2][c], x[3][c]};
    lo[c] = adm_dwt_s123_tap(column, 1, v_round, v_shift);
    hi[c] = adm_dwt_s123_tap(column, 0, v_round, v_shift);
  }
  out[at] = adm_dwt_s123_tap(lo, 1, h_round, h_shift);             // a
  out[band + at] = adm_dwt_s123_tap(hi, 1, h_round, h_shift);      // h
  out[2 * band + at] = adm_dwt_s123_tap(lo, 0, h_round, h_shift);  // v
  out[3 * band + at] = adm_dwt_s123_tap(hi, 0, h_round, h_shift);  // d
}

#define ADM_DWT_S123_KERNEL(NAME, SRC_T)                                                                   \
  __kernel void NAME(__global const SRC_T* src, int width, int height, int scale, __global int* out,      \
                     int out_width, int out_height) {                                                     \
    const int j = (int)get_global_id(0), i = (int)get_global_id(1);                                       \
    if (j >= out_width || i >= out_height) return;                                                        \
    int x[4][4];                                                                                          \
    for (int r = 0; r < 4; ++r) {                                                                         \
      const size_t row = (size_t)adm_dwt_mirror(2 * i - 1 + r, height) * (size_t)width;                   \
      for (int c = 0; c < 4; ++c) x[r][c] = (int)src[row + (size_t)adm_dwt_mirror(2 * j - 1 + c, width)]; \
    }                                                                                                     \
    adm_dwt_s123_window(x, scale, out, (size_t)out_width * (size_t)out_height,                            \
                        (size_t)i * (size_t)out_width + (size_t)j);                                       \
  }
ADM_DWT_S123_KERNEL(adm_dwt_s123_from16, short)
ADM_DWT_S123_KERNEL(adm_dwt_s123_from32, int)

// ---- decoupling and CSF, one work-item a sample of the filter region ----
// The region starts at (left, top); the items cover its width and height.

__kernel void adm_decouple_s0(__global const short* ref, __global const short* dis, int width, ulong band,
                              int left, int top, int right, int bottom, ulong gain_limit_bits,
                              __global short* restored, __global short* additive) {
  const int j = left + (int)get_global_id(0), i = top + (int)get_global_id(1);
  if (j >= right || i >= bottom) return;
  const size_t at = (size_t)i * (size_t)width + (size_t)j;
  short o[3], t[3], r[3], a[3];
  for (int b = 0; b < 3; ++b) {
    o[b] = ref[(size_t)(b + 1) * band + at];
    t[b] = dis[(size_t)(b + 1) * band + at];
  }
  adm_softfp_decouple_s0(o, t, softfp_from_bits(gain_limit_bits), r, a);
  for (int b = 0; b < 3; ++b) {
    restored[(size_t)b * band + at] = r[b];
    additive[(size_t)b * band + at] = a[b];
  }
}

__kernel void adm_decouple_s123(__global const int* ref, __global const int* dis, int width, ulong band,
                                int left, int top, int right, int bottom, ulong gain_limit_bits,
                                __global int* restored, __global int* additive) {
  const int j = left + (int)get_global_id(0), i = top + (int)get_global_id(1);
  if (j >= right || i >= bottom) return;
  const size_t at = (size_t)i * (size_t)width + (size_t)j;
  int o[3], t[3], r[3], a[3];
  for (int b = 0; b < 3; ++b) {
    o[b] = ref[(size_t)(b + 1) * band + at];
    t[b] = dis[(size_t)(b + 1) * band + at];
  }
  adm_softfp_decouple_s123(o, t, softfp_from_bits(gain_limit_bits), r, a);
  for (int b = 0; b < 3; ++b) {
    restored[(size_t)b * band + at] = r[b];
    additive[(size_t)b * band + at] = a[b];
  }
}

// The CSF of the oriented bands src into csf and flat, with factors f0..f2
// (Q21 / Q23 at scale 0, Q32 after).
__kernel void adm_csf_bands_s0(__global const short* src, int width, ulong band, int left, int top, int right,
                         int bottom, uint f0, uint f1, uint f2, __global short* csf, __global short* flat) {
  const int j = left + (int)get_global_id(0), i = top + (int)get_global_id(1);
  if (j >= right || i >= bottom) return;
  const size_t at = (size_t)i * (size_t)width + (size_t)j;
  const uint factor[3] = {f0, f1, f2};
  for (int b = 0; b < 3; ++b) {
    short c, f;
    adm_csf_s0(src[(size_t)b * band + at], (ushort)factor[b], adm_csf_shift_s0(b), adm_csf_round_s0(b), &c, &f);
    csf[(size_t)b * band + at] = c;
    flat[(size_t)b * band + at] = f;
  }
}

__kernel void adm_csf_bands_s123(__global const int* src, int width, ulong band, int left, int top, int right,
                           int bottom, uint f0, uint f1, uint f2, __global int* csf, __global int* flat) {
  const int j = left + (int)get_global_id(0), i = top + (int)get_global_id(1);
  if (j >= right || i >= bottom) return;
  const size_t at = (size_t)i * (size_t)width + (size_t)j;
  const uint factor[3] = {f0, f1, f2};
  for (int b = 0; b < 3; ++b) {
    int c, f;
    adm_csf_s123(src[(size_t)b * band + at], factor[b], &c, &f);
    csf[(size_t)b * band + at] = c;
    flat[(size_t)b * band + at] = f;
  }
}

// ---- row sums, one work-group a scored row (the group's index from `top`) ----

// v[0..2] summed over the work-group (modulo 2^64), through `scratch`; every
// item returns with the sums in v.
static inline void adm_group_sum3(ulong v[3], __local ulong* scratch) {
  const int lid = (int)get_local_id(0), items = (int)get_local_size(0);
  for (int b = 0; b < 3; ++b) scratch[b * ADM_ROW_ITEMS + lid] = v[b];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int half_size = items / 2; half_size > 0; half_size /= 2) {
    if (lid < half_size)
      for (int b = 0; b < 3; ++b) scratch[b * ADM_ROW_ITEMS + lid] += scratch[b * ADM_ROW_ITEMS + lid + half_size];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int b = 0; b < 3; ++b) v[b] = scratch[b * ADM_ROW_ITEMS];
}

// The neighbourhood of sample (i, j) of a width x height band, mirrored at the
// edges as the masking reads it: rows above and below, columns left and right.
typedef struct {
  size_t above, row, below;
  int left, right;
} AdmNeighbours;

static inline AdmNeighbours adm_neighbours(int i, int j, int width, int height) {
  AdmNeighbours n;
  n.above = (size_t)(i == 0 ? 1 : i - 1) * (size_t)width;
  n.row = (size_t)i * (size_t)width;
  n.below = (size_t)(i == height - 1 ? height - 1 : i + 1) * (size_t)width;
  n.left = j == 0 ? 1 : j - 1;
  n.right = j == width - 1 ? width - 1 : j + 1;
  return n;
}

#define ADM_NEIGHBOUR_SUM(fl, n, j)                                                                          \
  adm_neighbour_sum((fl)[(n).above + (n).left], (fl)[(n).above + (j)], (fl)[(n).above + (n).right],          \
                    (fl)[(n).row + (n).left], (fl)[(n).row + (n).right], (fl)[(n).below + (n).left],         \
                    (fl)[(n).below + (j)], (fl)[(n).below + (n).right])

// The masking sums of the oriented bands src against the masker (csf, flat)
// over the scored columns [left, right) of rows top + group: each row's sum
// per orientation rounded and shifted into rows[base + 3 * group + b].
__kernel void adm_masking_s0(__global const short* src, __global const short* csf, __global const short* flat,
                             int width, int height, ulong band, int left, int top, int right, uint f0, uint f1,
                             uint f2, int c0, int c1, int c2, long r0, long r1, long r2, long row_round,
                             int row_shift, __global ulong* rows, ulong base) {
  __local ulong scratch[3 * ADM_ROW_ITEMS];
  const int group = (int)get_group_id(0), i = top + group;
  const uint factor[3] = {f0, f1, f2};
  const int cube_shift[3] = {c0, c1, c2};
  const long cube_round[3] = {r0, r1, r2};
  ulong acc[3] = {0, 0, 0};
  for (int j = left + (int)get_local_id(0); j < right; j += (int)get_local_size(0)) {
    const AdmNeighbours n = adm_neighbours(i, j, width, height);
    int threshold = 0;
    for (int b = 0; b < 3; ++b) {
      __global const short* fl = flat + (size_t)b * band;
      threshold += adm_threshold_part_s0(csf[(size_t)b * band + n.row + (size_t)j], ADM_NEIGHBOUR_SUM(fl, n, j));
    }
    for (int b = 0; b < 3; ++b)
      acc[b] += (ulong)adm_masking_term_s0(src[(size_t)b * band + n.row + (size_t)j], (ushort)factor[b], threshold,
                                           b, cube_shift[b], cube_round[b]);
  }
  adm_group_sum3(acc, scratch);
  if (get_local_id(0) != 0) return;
  for (int b = 0; b < 3; ++b) rows[base + 3 * (size_t)group + (size_t)b] = (ulong)adm_masking_row_total(acc[b], row_round, row_shift);
}

__kernel void adm_masking_s123(__global const int* src, __global const int* csf, __global const int* flat,
                               int width, int height, ulong band, int left, int top, int right, uint f0, uint f1,
                               uint f2, int c0, int c1, int c2, long r0, long r1, long r2, long row_round,
                               int row_shift, __global ulong* rows, ulong base) {
  __local ulong scratch[3 * ADM_ROW_ITEMS];
  const int group = (int)get_group_id(0), i = top + group;
  const uint factor[3] = {f0, f1, f2};
  const int cube_shift[3] = {c0, c1, c2};
  const long cube_round[3] = {r0, r1, r2};
  ulong acc[3] = {0, 0, 0};
  for (int j = left + (int)get_local_id(0); j < right; j += (int)get_local_size(0)) {
    const AdmNeighbours n = adm_neighbours(i, j, width, height);
    uint threshold = 0;
    for (int b = 0; b < 3; ++b) {
      __global const int* fl = flat + (size_t)b * band;
      threshold += adm_threshold_part_s123(csf[(size_t)b * band + n.row + (size_t)j], ADM_NEIGHBOUR_SUM(fl, n, j));
    }
    for (int b = 0; b < 3; ++b)
      acc[b] += (ulong)adm_masking_term_s123(src[(size_t)b * band + n.row + (size_t)j], factor[b], threshold,
                                             cube_shift[b], cube_round[b]);
  }
  adm_group_sum3(acc, scratch);
  if (get_local_id(0) != 0) return;
  for (int b = 0; b < 3; ++b) rows[base + 3 * (size_t)group + (size_t)b] = (ulong)adm_masking_row_total(acc[b], row_round, row_shift);
}

// The denominator sums of subbands h, v, d (bands 1..3) of ref over the scored
// region: each row's sum per orientation rounded and shifted into rows[base + 3 * group + b].
__kernel void adm_denominator_s0(__global const short* ref, int width, ulong band, int left, int top, int right,
                                 ulong row_round, int row_shift, __global ulong* rows, ulong base) {
  __local ulong scratch[3 * ADM_ROW_ITEMS];
  const int group = (int)get_group_id(0);
  const size_t row = (size_t)(top + group) * (size_t)width;
  ulong acc[3] = {0, 0, 0};
  for (int j = left + (int)get_local_id(0); j < right; j += (int)get_local_size(0))
    for (int b = 0; b < 3; ++b) acc[b] += adm_denominator_term_s0(ref[(size_t)(b + 1) * band + row + (size_t)j]);
  adm_group_sum3(acc, scratch);
  if (get_local_id(0) != 0) return;
  for (int b = 0; b < 3; ++b) rows[base + 3 * (size_t)group + (size_t)b] = adm_denominator_row_total(acc[b], row_round, row_shift);
}

__kernel void adm_denominator_s123(__global const int* ref, int width, ulong band, int left, int top, int right,
                                   int square_shift, int cube_shift, ulong cube_round, ulong row_round,
                                   int row_shift, __global ulong* rows, ulong base) {
  __local ulong scratch[3 * ADM_ROW_ITEMS];
  const int group = (int)get_group_id(0);
  const size_t row = (size_t)(top + group) * (size_t)width;
  ulong acc[3] = {0, 0, 0};
  for (int j = left + (int)get_local_id(0); j < right; j += (int)get_local_size(0))
    for (int b = 0; b < 3; ++b)
      acc[b] += adm_denominator_term_s123(ref[(size_t)(b + 1) * band + row + (size_t)j], square_shift, cube_shift,
                                          cube_round);
  adm_group_sum3(acc, scratch);
  if (get_local_id(0) != 0) return;
  for (int b = 0; b < 3; ++b) rows[base + 3 * (size_t)group + (size_t)b] = adm_denominator_row_total(acc[b], row_round, row_shift);
}
