/* Cambi's per-sample stages (docs/spec/cambi.md, "Per picture") one output at
 * a time (the contrast values a run of a row's samples), written once in the
 * subset of core/portable.h for the devices: the CUDA and OpenCL kernels call
 * these functions with one thread (work-item) an output or run, and
 * tests/metrics/cambi run them on the host in the same arrangement against
 * the scalar reference (reference.cpp), so the indexing is proven where no
 * GPU is.
 *
 * Every step is an integer one but the contrast value, a binary32 conversion
 * and product, each correctly rounded on every backend (C++, CUDA's default
 * float(int) and `*`, OpenCL's default round-to-nearest conversion and its
 * correctly rounded binary32 `*`); no operand or result is subnormal (values
 * are 0 or at least 1/4225). Nothing is binary64: pooling runs on the host.
 *
 * Each stage reads its input whole, so a stage run in place (the reference's
 * anti-dithering, decimation and mode filter) is rewritten as a pure function
 * of the stage's input:
 *   - anti-dithering reads only samples to the right and below, which the
 *     reference's pass has not changed yet: the same sums from the unchanged image;
 *   - decimation s times keeps sample (x << s, y << s) of the image it starts from;
 *   - the mode filter's rows 1 .. h - 2 take mode3 down three rows of the
 *     horizontal pass; its first and last rows keep the input;
 *   - the window counts are integers: a histogram slid along a row, or
 *     counted afresh, holds the reference's sliding counts.
 */
#ifndef EXACTVQ_METRICS_CAMBI_DEFINITION_H
#define EXACTVQ_METRICS_CAMBI_DEFINITION_H

#include "core/portable.h"

/* The largest number of contrasts (1 << max_log_contrast, setup.h's kMaxDiffs). */
#define EXACTVQ_CAMBI_MAX_DIFFS 32
/* A band code that is no code: a sample outside the mask, or whose code lies
 * outside [base, base + band). Above every code (at most 1024) by more than
 * the histograms' bins (EXACTVQ_CAMBI_HIST_BINS). */
#define EXACTVQ_CAMBI_NO_CODE 0xFFFF
/* The spatial mask's window side. */
#define EXACTVQ_CAMBI_MASK_SIDE 7

/* ---- To 10 bits at the scored size, and the anti-dithering ---- */

/* A picture's luma samples: 8-bit (`wide` 0) or 16-bit, `width` a row. */
EXACTVQ_FN int cambi_sample(const EXACTVQ_GLOBAL unsigned char* plane, int wide, int width, int x,
                            int y) {
  const exactvq_u64 at = (exactvq_u64)y * (exactvq_u64)width + (exactvq_u64)x;
  if (wide) return ((const EXACTVQ_GLOBAL exactvq_u16*)plane)[at];
  return plane[at];
}

/* How a sample becomes a 10-bit code: shifted up by `up`, or rounded down by
 * `down` bits (16-bit samples may give 1024). */
typedef struct CambiConvert {
  int up, down, round; /* round = down ? 1 << (down - 1) : 0 */
} CambiConvert;

EXACTVQ_FN int cambi_ten_bit_code(int v, CambiConvert c) {
  return c.up ? v << c.up : (v + c.round) >> c.down;
}

/* The 10-bit code of sample (x, y) of the scored size, before anti-dithering:
 * the picture's sample at the nearest-neighbour picks rows[y], cols[x] (null:
 * the picture has the scored size). */
EXACTVQ_FN int cambi_converted(const EXACTVQ_GLOBAL unsigned char* plane, int wide, int plane_width,
                               const EXACTVQ_GLOBAL int* rows, const EXACTVQ_GLOBAL int* cols,
                               CambiConvert c, int x, int y) {
  const int sx = cols ? cols[x] : x;
  const int sy = rows ? rows[y] : y;
  return cambi_ten_bit_code(cambi_sample(plane, wide, plane_width, sx, sy), c);
}

/* Sample (x, y) of cambi's 10-bit image of w x h samples; with `anti_dither`,
 * the rounded-down mean of its 2 x 2 block (its pair at the last row and
 * column; the last sample as it is). */
EXACTVQ_FN exactvq_u16 cambi_ten_bit_at(const EXACTVQ_GLOBAL unsigned char* plane, int wide,
                                        int plane_width, const EXACTVQ_GLOBAL int* rows,
                                        const EXACTVQ_GLOBAL int* cols, CambiConvert c,
                                        int anti_dither, int w, int h, int x, int y) {
  const int a = cambi_converted(plane, wide, plane_width, rows, cols, c, x, y);
  if (!anti_dither) return (exactvq_u16)a;
  const int right = x + 1 < w, below = y + 1 < h;
  if (right && below)
    return (exactvq_u16)((a + cambi_converted(plane, wide, plane_width, rows, cols, c, x + 1, y) +
                          cambi_converted(plane, wide, plane_width, rows, cols, c, x, y + 1) +
                          cambi_converted(plane, wide, plane_width, rows, cols, c, x + 1, y + 1)) >>
                         2);
  if (below)
    return (exactvq_u16)((a + cambi_converted(plane, wide, plane_width, rows, cols, c, x, y + 1)) >>
                         1);
  if (right)
    return (exactvq_u16)((a + cambi_converted(plane, wide, plane_width, rows, cols, c, x + 1, y)) >>
                         1);
  return (exactvq_u16)a;
}

/* ---- The spatial mask (at the scored size) ---- */

/* Whether sample (x, y) equals its right and lower neighbours (a missing one counts as equal). */
EXACTVQ_FN int cambi_flat_at(const EXACTVQ_GLOBAL exactvq_u16* image, int w, int h, int x, int y) {
  const exactvq_u64 at = (exactvq_u64)y * (exactvq_u64)w + (exactvq_u64)x;
  const int right = x == w - 1 || image[at] == image[at + 1];
  const int down = y == h - 1 || image[at] == image[at + (exactvq_u64)w];
  return right && down;
}

/* 1 where more than `threshold` samples of the 7 x 7 window around (x, y)
 * (inside the picture) are flat. */
EXACTVQ_FN int cambi_mask_at(const EXACTVQ_GLOBAL exactvq_u16* image, int w, int h, int threshold,
                             int x, int y) {
  const int reach = EXACTVQ_CAMBI_MASK_SIDE / 2;
  int count = 0;
  for (int yy = y - reach; yy <= y + reach; ++yy) {
    if (yy < 0 || yy >= h) continue;
    for (int xx = x - reach; xx <= x + reach; ++xx)
      if (xx >= 0 && xx < w) count += cambi_flat_at(image, w, h, xx, yy);
  }
  return count > threshold;
}

/* ---- Each scale's image: decimation and the mode filter ---- */

/* The value two of three share, else the smallest. */
EXACTVQ_FN exactvq_u16 cambi_mode3(exactvq_u16 a, exactvq_u16 b, exactvq_u16 c) {
  if (a == b || a == c) return a;
  if (b == c) return b;
  return a < b ? (a < c ? a : c) : (b < c ? b : c);
}

/* Sample (x, y) of the image the mode filter reads: sample (x << step,
 * y << step) of `src` (a row `src_width` samples; step 1 decimates once). */
EXACTVQ_FN exactvq_u16 cambi_scale_sample(const EXACTVQ_GLOBAL exactvq_u16* src, int src_width,
                                          int step, int x, int y) {
  return src[(exactvq_u64)(y << step) * (exactvq_u64)src_width + (exactvq_u64)(x << step)];
}

/* The horizontal pass of row y at column x (the row's ends as they are). */
EXACTVQ_FN exactvq_u16 cambi_mode_row(const EXACTVQ_GLOBAL exactvq_u16* src, int src_width,
                                      int step, int w, int x, int y) {
  const exactvq_u16 v = cambi_scale_sample(src, src_width, step, x, y);
  if (x == 0 || x == w - 1) return v;
  return cambi_mode3(cambi_scale_sample(src, src_width, step, x - 1, y), v,
                     cambi_scale_sample(src, src_width, step, x + 1, y));
}

/* Sample (x, y) of the mode-filtered w x h image of the scale whose samples
 * cambi_scale_sample reads. */
EXACTVQ_FN exactvq_u16 cambi_mode_filter_at(const EXACTVQ_GLOBAL exactvq_u16* src, int src_width,
                                            int step, int w, int h, int x, int y) {
  if (y == 0 || y == h - 1) return cambi_scale_sample(src, src_width, step, x, y);
  return cambi_mode3(cambi_mode_row(src, src_width, step, w, x, y - 1),
                     cambi_mode_row(src, src_width, step, w, x, y),
                     cambi_mode_row(src, src_width, step, w, x, y + 1));
}

/* ---- Contrast values ---- */

/* What the contrast values of a picture take from the setup (setup.h). */
typedef struct CambiContrast {
  int num_diffs; /* N: contrasts 1 .. N */
  int base;      /* the band of codes counted: [base, base + band) */
  int band;
  int vlt_luma; /* codes (plus N) at or below this minus d + 1 are dark */
  int pad;      /* the window's half side */
} CambiContrast;

/* Tables in device memory: tvi[d] the threshold (plus N) of contrast d + 1,
 * weight[d] its weight, reciprocal[i] libvmaf's binary32 reciprocals. */
typedef struct CambiTables {
  const EXACTVQ_GLOBAL int* tvi;
  const EXACTVQ_GLOBAL int* weight;
  const EXACTVQ_GLOBAL float* reciprocal;
} CambiTables;

/* The band code of sample (x, y) of a w x h scale: its code where it lies
 * inside the mask and its code in the band, else EXACTVQ_CAMBI_NO_CODE (a
 * code no count matches). The mask is the scored size's, a row `mask_width`
 * samples, read at (x << mask_step, y << mask_step) (the decimations). */
EXACTVQ_FN exactvq_u16 cambi_band_code(const EXACTVQ_GLOBAL exactvq_u16* image, int w,
                                       const EXACTVQ_GLOBAL unsigned char* mask, int mask_width,
                                       int mask_step, CambiContrast k, int x, int y) {
  if (!mask[(exactvq_u64)(y << mask_step) * (exactvq_u64)mask_width +
            (exactvq_u64)(x << mask_step)])
    return EXACTVQ_CAMBI_NO_CODE;
  const int code = image[(exactvq_u64)y * (exactvq_u64)w + (exactvq_u64)x];
  return (unsigned)(code - k.base) < (unsigned)k.band ? (exactvq_u16)code
                                                      : (exactvq_u16)EXACTVQ_CAMBI_NO_CODE;
}

/* The binary32 value of one contrast: (float)(weight * p0 * p) * reciprocal,
 * each rounded to nearest. */
EXACTVQ_FN float cambi_contrast_term(int weight, int p0, int p, float reciprocal) {
  const float counts = (float)(weight * p0 * p);
  return counts * reciprocal;
}

/* The codes a run's histogram keeps: [lo, lo + span), span = 4 N + 2, so
 * that the codes u - N .. u + N of centres near the one it was built for fall inside. */
#define EXACTVQ_CAMBI_HIST_BINS (4 * EXACTVQ_CAMBI_MAX_DIFFS + 2)

/* Adds `step` to the bins of column c's band codes in rows top .. bottom. */
EXACTVQ_FN void cambi_count_column(const EXACTVQ_GLOBAL exactvq_u16* codes, int w, int c, int top,
                                   int bottom, int lo, int span, int step, int* hist) {
  for (int r = top; r <= bottom; ++r) {
    const unsigned e =
        (unsigned)((int)codes[(exactvq_u64)r * (exactvq_u64)w + (exactvq_u64)c] - lo);
    if (e < (unsigned)span) hist[e] += step;
  }
}

/* The contrast values of `count` samples of row y from column x0 on, into
 * row[x0 ..], from the scale's band codes (cambi_band_code, w x h): 0 where a
 * sample's own code is no code of the band, else the largest term over the
 * contrasts d + 1 visible at its code u, from the counts n(u) of its code and
 * the larger of n(u + d + 1) and n(u - d - 1) in the (2 pad + 1)^2 window
 * around it inside the picture. The counts are a histogram of the window's
 * codes in [lo, lo + span), slid one column at a time along the row (integers:
 * the same counts as the window counted whole) and counted afresh where a
 * centre's codes leave its range. */
EXACTVQ_FN void cambi_contrast_run(const EXACTVQ_GLOBAL exactvq_u16* codes, int w, int h, int x0,
                                   int y, int count, CambiContrast k, CambiTables t,
                                   EXACTVQ_GLOBAL float* row) {
  const int n = k.num_diffs, pad = k.pad, span = 4 * n + 2;
  const int top = y - pad < 0 ? 0 : y - pad, bottom = y + pad >= h ? h - 1 : y + pad;
  int hist[EXACTVQ_CAMBI_HIST_BINS];
  int lo = 0, counted = 0; /* counted: hist holds the window of the previous sample */
  const int end = x0 + count < w ? x0 + count : w;
  for (int x = x0; x < end; ++x) {
    if (counted) {
      if (x - 1 - pad >= 0)
        cambi_count_column(codes, w, x - 1 - pad, top, bottom, lo, span, -1, hist);
      if (x + pad < w) cambi_count_column(codes, w, x + pad, top, bottom, lo, span, 1, hist);
    }
    const int u = codes[(exactvq_u64)y * (exactvq_u64)w + (exactvq_u64)x];
    if (u == EXACTVQ_CAMBI_NO_CODE) {
      row[x] = 0.0f;
      continue;
    }
    if (!counted || u - n < lo || u + n >= lo + span) {
      lo = u - 2 * n;
      for (int i = 0; i < span; ++i) hist[i] = 0;
      const int left = x - pad < 0 ? 0 : x - pad, right = x + pad >= w ? w - 1 : x + pad;
      for (int c = left; c <= right; ++c)
        cambi_count_column(codes, w, c, top, bottom, lo, span, 1, hist);
      counted = 1;
    }
    const int at = u - n - lo; /* hist[at + n + e]: the window's samples of code u + e */
    const int p0 = hist[at + n];
    const int value = u + n; /* codes are compared with the thresholds N above them */
    float best = 0.0f;
    for (int d = 0; d < n; ++d) {
      if (value > t.tvi[d] || value + d + 1 <= k.vlt_luma) continue;
      const int p1 = hist[at + n + d + 1], p2 = hist[at + n - d - 1];
      const int p = p1 > p2 ? p1 : p2;
      const float v = cambi_contrast_term(t.weight[d], p0, p, t.reciprocal[p + p0]);
      if (v > best) best = v;
    }
    row[x] = best;
  }
}

#endif /* EXACTVQ_METRICS_CAMBI_DEFINITION_H */
