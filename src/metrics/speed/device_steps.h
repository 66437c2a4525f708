/* SpEED's per-pixel and per-block steps for the GPU engines, one text for the
 * CUDA kernels (native binary64, or softfp with SPEED_EMULATE_FP64), the
 * OpenCL kernels (softfp: no double there) and the host tests that hold them
 * against the reference (tests/metrics/speed/device_steps_test.cpp). Each
 * function is one output of a step of reference.cpp's Scorer, with its
 * operations in the same order and types: binary32 steps in binary32 (IEEE,
 * nothing contracted: every kernel build turns contraction off), binary64
 * steps native or on softfp (the same bits), log2 the pinned glibc one
 * (libm/log2_double.h, libm/log2_softfp.h). docs/spec/speed.md, "Engines",
 * says what runs where.
 */
#ifndef EXACTVQ_METRICS_SPEED_DEVICE_STEPS_H
#define EXACTVQ_METRICS_SPEED_DEVICE_STEPS_H

#include "core/portable.h"
#include "core/portable_bits.h"

#if defined(__OPENCL_VERSION__) || defined(SPEED_EMULATE_FP64)
#define SPEED_SOFTFP 1
#include "softfp/softfp.h"
#include "softfp/softfp_binary32.h"
#include "libm/log2_softfp.h"
#else
#define SPEED_SOFTFP 0
#include "libm/log2_double.h"
#endif

#define SPEED_BLOCK 5
#define SPEED_BLOCK_ELEMENTS 25
#define SPEED_PAIRS 325 /* the covariance sums: windows y <= x of 25 */

/* ---- binary32 ------------------------------------------------------------ */

#if defined(__CUDA_ARCH__)
#define SPEED_FADD(a, b) __fadd_rn((a), (b))
#define SPEED_FSUB(a, b) __fsub_rn((a), (b))
#define SPEED_FMUL(a, b) __fmul_rn((a), (b))
#define SPEED_FDIV(a, b) __fdiv_rn((a), (b))
#else
#define SPEED_FADD(a, b) ((a) + (b))
#define SPEED_FSUB(a, b) ((a) - (b))
#define SPEED_FMUL(a, b) ((a) * (b))
#if defined(__OPENCL_VERSION__)
/* OpenCL's binary32 division need not be correctly rounded: the quotient in
 * binary64 (softfp) rounded to binary32 is (53 >= 2 * 24 + 2 bits). */
#define SPEED_FDIV(a, b) speed_soft_fdiv((a), (b))
#else
#define SPEED_FDIV(a, b) ((a) / (b))
#endif
#endif

/* |x| (the sign bit cleared, as fabs). */
EXACTVQ_FN float speed_fabs(float x) {
  return exactvq_f32_of_bits(exactvq_f32_bits(x) & 0x7FFFFFFFu);
}

/* ---- binary64: native or softfp --------------------------------------------- */

#if SPEED_SOFTFP
typedef softfp speed_f64;
EXACTVQ_FN speed_f64 speed_d_from_f(float x) { return softfp_from_f32_bits(exactvq_f32_bits(x)); }
/* x rounded to binary32 (nearest even), subnormal results included. */
EXACTVQ_FN float speed_d_to_f(speed_f64 x) { return exactvq_f32_of_bits(softfp_to_f32_bits(x)); }
EXACTVQ_FN speed_f64 speed_d_of_bits(exactvq_u64 b) { return softfp_from_bits(b); }
EXACTVQ_FN exactvq_u64 speed_d_bits(speed_f64 x) { return softfp_to_bits(x); }
#define SPEED_DADD(a, b) softfp_add((a), (b))
#define SPEED_DSUB(a, b) softfp_sub((a), (b))
#define SPEED_DMUL(a, b) softfp_mul((a), (b))
#define SPEED_DLOG2(a) softfp_log2(a)
#define SPEED_DVALID(a) softfp_is_valid(a)
EXACTVQ_FN float speed_soft_fdiv(float a, float b) {
  return exactvq_f32_of_bits(softfp_f32_div(exactvq_f32_bits(a), exactvq_f32_bits(b)));
}
#else
typedef double speed_f64;
EXACTVQ_FN speed_f64 speed_d_from_f(float x) { return (double)x; }
EXACTVQ_FN float speed_d_to_f(speed_f64 x) {
#if defined(__CUDA_ARCH__)
  return __double2float_rn(x);
#else
  return (float)x;
#endif
}
EXACTVQ_FN speed_f64 speed_d_of_bits(exactvq_u64 b) { return exactvq_f64_of_bits(b); }
EXACTVQ_FN exactvq_u64 speed_d_bits(speed_f64 x) { return exactvq_f64_bits(x); }
#if defined(__CUDA_ARCH__)
#define SPEED_DADD(a, b) __dadd_rn((a), (b))
#define SPEED_DSUB(a, b) __dsub_rn((a), (b))
#define SPEED_DMUL(a, b) __dmul_rn((a), (b))
#else
#define SPEED_DADD(a, b) ((a) + (b))
#define SPEED_DSUB(a, b) ((a) - (b))
#define SPEED_DMUL(a, b) ((a) * (b))
#endif
#define SPEED_DLOG2(a) exactvq_log2_f64(a)
#define SPEED_DVALID(a) 1
#endif

/* ---- the plane: libvmaf's picture_copy and the difference of two --------- */

/* Sample i of a plane of `bitdepth`-bit samples (bytes at 8 bits, 16-bit words
 * above) as picture_copy makes it: s - 128, or s / 2^(bitdepth - 8) - 128
 * (the division by a power of two is the product with its inverse, exactly). */
EXACTVQ_FN float speed_load_sample(const EXACTVQ_GLOBAL unsigned char* plane, exactvq_u64 i,
                                   exactvq_i32 bitdepth) {
  if (bitdepth == 8) return SPEED_FADD((float)plane[i], -128.0f);
  const float inverse = bitdepth == 10 ? 0.25f : bitdepth == 12 ? 0.0625f : 0.00390625f;
  const float v = (float)((const EXACTVQ_GLOBAL exactvq_u16*)plane)[i];
  return SPEED_FADD(SPEED_FMUL(v, inverse), -128.0f);
}

/* ---- the prescale (vif_scale_frame_s) --------------------------------------- */

#define SPEED_NEAREST 0
#define SPEED_BILINEAR 1
#define SPEED_BICUBIC 2
#define SPEED_LANCZOS4 3

/* Sample (x, y) of the resampled plane from `src` (rows `stride` floats
 * apart): the method's reading at column x (ix, wx: `taps` source columns and
 * weights) and row y (iy, wy), as reference.cpp's ScaleAxis lays them out. */
EXACTVQ_FN float speed_resample_at(exactvq_i32 method, const EXACTVQ_GLOBAL float* src,
                                   exactvq_u64 stride, const EXACTVQ_GLOBAL exactvq_i32* ix,
                                   const EXACTVQ_GLOBAL float* wx,
                                   const EXACTVQ_GLOBAL exactvq_i32* iy,
                                   const EXACTVQ_GLOBAL float* wy, exactvq_i32 taps) {
  if (method == SPEED_NEAREST) return src[(exactvq_u64)iy[0] * stride + (exactvq_u64)ix[0]];
  if (method == SPEED_BILINEAR) {
    const EXACTVQ_GLOBAL float* r1 = src + (exactvq_u64)iy[0] * stride;
    const EXACTVQ_GLOBAL float* r2 = src + (exactvq_u64)iy[1] * stride;
    const float dx = wx[0], dy = wy[0];
    const float a = SPEED_FMUL(SPEED_FMUL(SPEED_FSUB(1.0f, dy), SPEED_FSUB(1.0f, dx)), r1[ix[0]]);
    const float b = SPEED_FMUL(SPEED_FMUL(SPEED_FSUB(1.0f, dy), dx), r1[ix[1]]);
    const float c = SPEED_FMUL(SPEED_FMUL(dy, SPEED_FSUB(1.0f, dx)), r2[ix[0]]);
    const float d = SPEED_FMUL(SPEED_FMUL(dy, dx), r2[ix[1]]);
    return SPEED_FADD(SPEED_FADD(SPEED_FADD(a, b), c), d);
  }
  /* bicubic, lanczos4: rows outer, columns inner, from 0; lanczos4 divides by
   * the sum of its weights. */
  float value = 0.0f, weight_sum = 0.0f;
  for (exactvq_i32 j = 0; j < taps; ++j)
    for (exactvq_i32 i = 0; i < taps; ++i) {
      const float weight = SPEED_FMUL(wx[i], wy[j]);
      weight_sum = SPEED_FADD(weight_sum, weight);
      value = SPEED_FADD(value,
                         SPEED_FMUL(src[(exactvq_u64)iy[j] * stride + (exactvq_u64)ix[i]], weight));
    }
  return method == SPEED_LANCZOS4 ? SPEED_FDIV(value, weight_sum) : value;
}

/* ---- the Gaussian filters (vif_filter1d_s) --------------------------------- */

/* The tap index mirrored about the first and last sample. */
EXACTVQ_FN exactvq_i32 speed_mirror(exactvq_i32 i, exactvq_i32 n) {
  return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i);
}

/* What the filters read: a plane of floats (f32 not null; `stride` floats a
 * row), or, with f32 null, libvmaf's floats of `bitdepth`-bit samples as
 * picture_copy makes them (speed_load_sample), a's less b's where b is not
 * null (speed_temporal's difference; `stride` samples a row). */
typedef struct {
  const EXACTVQ_GLOBAL float* f32;
  const EXACTVQ_GLOBAL unsigned char* a;
  const EXACTVQ_GLOBAL unsigned char* b;
  exactvq_u64 stride;
  exactvq_i32 bitdepth;
} speed_source;

EXACTVQ_FN speed_source speed_floats(const EXACTVQ_GLOBAL float* plane, exactvq_u64 stride) {
  speed_source s;
  s.f32 = plane;
  s.a = 0;
  s.b = 0;
  s.stride = stride;
  s.bitdepth = 0;
  return s;
}

EXACTVQ_FN speed_source speed_samples(const EXACTVQ_GLOBAL unsigned char* a,
                                      const EXACTVQ_GLOBAL unsigned char* b, exactvq_u64 stride,
                                      exactvq_i32 bitdepth) {
  speed_source s;
  s.f32 = 0;
  s.a = a;
  s.b = b;
  s.stride = stride;
  s.bitdepth = bitdepth;
  return s;
}

/* The float at (row, col) of `s`: the same value the load step would have
 * stored there. */
EXACTVQ_FN float speed_source_at(speed_source s, exactvq_i32 row, exactvq_i32 col) {
  const exactvq_u64 i = (exactvq_u64)row * s.stride + (exactvq_u64)col;
  if (s.f32) return s.f32[i];
  const float v = speed_load_sample(s.a, i, s.bitdepth);
  return s.b ? SPEED_FSUB(v, speed_load_sample(s.b, i, s.bitdepth)) : v;
}

/* The vertical pass at row i, column c: the taps' products summed in order
 * from 0. */
EXACTVQ_FN float speed_vertical_sum(const EXACTVQ_GLOBAL float* f, exactvq_i32 taps,
                                    speed_source src, exactvq_i32 h, exactvq_i32 i, exactvq_i32 c) {
  float acc = 0.0f;
  for (exactvq_i32 t = 0; t < taps; ++t)
    acc = SPEED_FADD(acc,
                     SPEED_FMUL(f[t], speed_source_at(src, speed_mirror(i - taps / 2 + t, h), c)));
  return acc;
}

/* The separable filter's output (i, j) of a w x h plane: the horizontal pass
 * over the vertical passes of the columns it reads. */
EXACTVQ_FN float speed_filtered_at(const EXACTVQ_GLOBAL float* f, exactvq_i32 taps,
                                   speed_source src, exactvq_i32 w, exactvq_i32 h, exactvq_i32 i,
                                   exactvq_i32 j) {
  float acc = 0.0f;
  for (exactvq_i32 t = 0; t < taps; ++t) {
    const exactvq_i32 c = speed_mirror(j - taps / 2 + t, w);
    acc = SPEED_FADD(acc, SPEED_FMUL(f[t], speed_vertical_sum(f, taps, src, h, i, c)));
  }
  return acc;
}

/* ---- the statistics of the 25 windows -------------------------------------- */

/* Window k's mean: the sum over its sub_h x sub_w samples in raster order,
 * over `count` (the number of samples, as binary32). */
EXACTVQ_FN float speed_window_mean(const EXACTVQ_GLOBAL float* data, exactvq_u64 stride,
                                   exactvq_i32 sub_w, exactvq_i32 sub_h, exactvq_i32 k,
                                   float count) {
  const EXACTVQ_GLOBAL float* p =
      data + (exactvq_u64)(k / SPEED_BLOCK) * stride + (exactvq_u64)(k % SPEED_BLOCK);
  float sum = 0.0f;
  for (exactvq_i32 i = 0; i < sub_h; ++i)
    for (exactvq_i32 j = 0; j < sub_w; ++j)
      sum = SPEED_FADD(sum, p[(exactvq_u64)i * stride + (exactvq_u64)j]);
  return SPEED_FDIV(sum, count);
}

/* The windows (x, y), y <= x, of covariance sum number `pair` (x (x + 1) / 2 + y). */
EXACTVQ_FN void speed_pair_windows(exactvq_i32 pair, exactvq_i32* x, exactvq_i32* y) {
  exactvq_i32 row = 0;
  while ((row + 1) * (row + 2) / 2 <= pair) ++row;
  *x = row;
  *y = pair - row * (row + 1) / 2;
}

/* Covariance sum number `pair`: over the windows' samples in raster order,
 * (vx - mean_x) * (vy - mean_y) in binary64 added from 0
 * (covariance_sums_reference). */
EXACTVQ_FN speed_f64 speed_covariance_sum(const EXACTVQ_GLOBAL float* data, exactvq_u64 stride,
                                          exactvq_i32 sub_w, exactvq_i32 sub_h,
                                          const EXACTVQ_GLOBAL float* means, exactvq_i32 pair) {
  exactvq_i32 x = 0, y = 0;
  speed_pair_windows(pair, &x, &y);
  const speed_f64 mean_x = speed_d_from_f(means[x]), mean_y = speed_d_from_f(means[y]);
  const EXACTVQ_GLOBAL float* px =
      data + (exactvq_u64)(x / SPEED_BLOCK) * stride + (exactvq_u64)(x % SPEED_BLOCK);
  const EXACTVQ_GLOBAL float* py =
      data + (exactvq_u64)(y / SPEED_BLOCK) * stride + (exactvq_u64)(y % SPEED_BLOCK);
  speed_f64 sum = speed_d_of_bits(0);
  for (exactvq_i32 i = 0; i < sub_h; ++i)
    for (exactvq_i32 j = 0; j < sub_w; ++j) {
      const exactvq_u64 at = (exactvq_u64)i * stride + (exactvq_u64)j;
      const speed_f64 dx = SPEED_DSUB(speed_d_from_f(px[at]), mean_x);
      const speed_f64 dy = SPEED_DSUB(speed_d_from_f(py[at]), mean_y);
      sum = SPEED_DADD(sum, SPEED_DMUL(dx, dy));
    }
  return sum;
}

/* ---- one block: K X = Y, its variance and entropy ------------------------- */

/* What the host makes of the covariance matrix for the blocks (reference.h's
 * BlockSolver): its eigenvalues, Q^T and R of its QR decomposition, row-major,
 * and whether it is singular (then every block's X is 0). */

/* Block b's variance S (out[1]) and entropy (out[0]) from the residual plane
 * (`stride` floats a row, blocks_horizontal blocks a row of blocks). Returns 0
 * where a logarithm had no softfp value (its operand not positive), else 1. */
EXACTVQ_FN exactvq_i32 speed_block(const EXACTVQ_GLOBAL float* data, exactvq_u64 stride,
                                   exactvq_i32 blocks_horizontal, exactvq_i32 b,
                                   const EXACTVQ_GLOBAL float* qt, const EXACTVQ_GLOBAL float* r,
                                   const EXACTVQ_GLOBAL float* eigenvalues, exactvq_i32 singular,
                                   float sigma_nn, exactvq_u64 log2_2pie_bits, float* out) {
  const exactvq_i32 bi = b / blocks_horizontal, bj = b % blocks_horizontal;
  float y[SPEED_BLOCK_ELEMENTS], x[SPEED_BLOCK_ELEMENTS];
  for (exactvq_i32 k = 0; k < SPEED_BLOCK_ELEMENTS; ++k)
    y[k] = data[(exactvq_u64)(SPEED_BLOCK * bi + k / SPEED_BLOCK) * stride +
                (exactvq_u64)(SPEED_BLOCK * bj + k % SPEED_BLOCK)];
  if (singular) {
    for (exactvq_i32 k = 0; k < SPEED_BLOCK_ELEMENTS; ++k) x[k] = 0.0f;
  } else {
    /* Q^T Y, each entry summed over k in order from 0, then R X = Q^T Y from
     * the last row up (R's diagonal is at least 1e-6: the host checked). */
    float rhs[SPEED_BLOCK_ELEMENTS];
    for (exactvq_i32 i = 0; i < SPEED_BLOCK_ELEMENTS; ++i) {
      float acc = 0.0f;
      for (exactvq_i32 k = 0; k < SPEED_BLOCK_ELEMENTS; ++k)
        acc = SPEED_FADD(acc, SPEED_FMUL(qt[i * SPEED_BLOCK_ELEMENTS + k], y[k]));
      rhs[i] = acc;
    }
    for (exactvq_i32 i = SPEED_BLOCK_ELEMENTS - 1; i >= 0; --i) {
      float term = rhs[i];
      for (exactvq_i32 k = i + 1; k < SPEED_BLOCK_ELEMENTS; ++k)
        term = SPEED_FSUB(term, SPEED_FMUL(x[k], r[i * SPEED_BLOCK_ELEMENTS + k]));
      x[i] = SPEED_FDIV(term, r[i * SPEED_BLOCK_ELEMENTS + i]);
    }
  }
  /* Z = X Y / 25, summed over the block's positions in order. */
  float s = 0.0f;
  for (exactvq_i32 k = 0; k < SPEED_BLOCK_ELEMENTS; ++k) {
    const float z = SPEED_FDIV(SPEED_FMUL(x[k], y[k]), 25.0f);
    s = k == 0 ? z : SPEED_FADD(s, z);
  }
  /* The entropy over the eigenvalues in their order. */
  const speed_f64 log2_2pie = speed_d_of_bits(log2_2pie_bits);
  exactvq_i32 valid = 1;
  float entropy = 0.0f;
  for (exactvq_i32 k = 0; k < SPEED_BLOCK_ELEMENTS; ++k) {
    const float l = eigenvalues[k] < 0.0f ? 0.0f : eigenvalues[k];
    const speed_f64 lg = SPEED_DLOG2(speed_d_from_f(SPEED_FADD(SPEED_FMUL(l, s), sigma_nn)));
    if (!SPEED_DVALID(lg)) valid = 0;
    entropy = speed_d_to_f(SPEED_DADD(speed_d_from_f(entropy), SPEED_DADD(lg, log2_2pie)));
  }
  out[0] = entropy;
  out[1] = s;
  return valid;
}

/* ---- the score's term of one block ------------------------------------------ */

/* log2(1 + v) of a binary32 variance (1 + v in binary32, widened). */
EXACTVQ_FN speed_f64 speed_log2_one_plus(float v) {
  return SPEED_DLOG2(speed_d_from_f(SPEED_FADD(1.0f, v)));
}

/* log2(1 + (a * double(vr) + b * double(vd))), a and b binary64 bit patterns
 * (modes 5 and 6: 0.75 and 0.25). */
EXACTVQ_FN speed_f64 speed_log2_one_plus_mix(float vr, float vd, exactvq_u64 a, exactvq_u64 b) {
  const speed_f64 mix = SPEED_DADD(SPEED_DMUL(speed_d_of_bits(a), speed_d_from_f(vr)),
                                   SPEED_DMUL(speed_d_of_bits(b), speed_d_from_f(vd)));
  return SPEED_DLOG2(SPEED_DADD(speed_d_of_bits(EXACTVQ_LOG2_ONE), mix));
}

#define SPEED_F64_HALF EXACTVQ_U64_C(0x3FE0000000000000)
#define SPEED_F64_QUARTER EXACTVQ_U64_C(0x3FD0000000000000)
#define SPEED_F64_THREE_QUARTERS EXACTVQ_U64_C(0x3FE8000000000000)

/* The block's |spatial_ref - spatial_dis| under weight_var_mode `mode`, or 0
 * where neither entropy reaches `base_entropy` (adding 0 to the score, which
 * is never -0, changes nothing). *valid becomes 0 where a logarithm had no
 * softfp value. */
EXACTVQ_FN float speed_term(float er, float ed, float vr, float vd, float base_entropy,
                            exactvq_i32 mode, exactvq_i32* valid) {
  if (er < base_entropy && ed < base_entropy) return 0.0f;
  speed_f64 wr, wd;
  if (mode == 0) {
    wr = speed_log2_one_plus(vr);
    wd = speed_log2_one_plus(vd);
  } else if (mode == 1) {
    wr = speed_log2_one_plus(vr);
    wd = wr;
  } else if (mode == 2) {
    wr = speed_log2_one_plus(vd);
    wd = wr;
  } else if (mode == 3) {
    /* log2(1 + double(vr + vd) / 2.0) */
    const speed_f64 halved =
        SPEED_DMUL(speed_d_from_f(SPEED_FADD(vr, vd)), speed_d_of_bits(SPEED_F64_HALF));
    wr = SPEED_DLOG2(SPEED_DADD(speed_d_of_bits(EXACTVQ_LOG2_ONE), halved));
    wd = wr;
  } else if (mode == 4) {
    wr = speed_log2_one_plus(vr);
    const speed_f64 halved =
        SPEED_DMUL(speed_d_from_f(SPEED_FADD(vr, vd)), speed_d_of_bits(SPEED_F64_HALF));
    wd = SPEED_DLOG2(SPEED_DADD(speed_d_of_bits(EXACTVQ_LOG2_ONE), halved));
  } else if (mode == 5) {
    wr = speed_log2_one_plus(vr);
    wd = speed_log2_one_plus_mix(vr, vd, SPEED_F64_THREE_QUARTERS, SPEED_F64_QUARTER);
  } else {
    wr = speed_log2_one_plus(vr);
    wd = speed_log2_one_plus_mix(vr, vd, SPEED_F64_QUARTER, SPEED_F64_THREE_QUARTERS);
  }
  if (!SPEED_DVALID(wr) || !SPEED_DVALID(wd)) *valid = 0;
  const float spatial_ref = speed_d_to_f(SPEED_DMUL(speed_d_from_f(er), wr));
  const float spatial_dis = speed_d_to_f(SPEED_DMUL(speed_d_from_f(ed), wd));
  return speed_fabs(SPEED_FSUB(spatial_ref, spatial_dis));
}

#endif /* EXACTVQ_METRICS_SPEED_DEVICE_STEPS_H */
