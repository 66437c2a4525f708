/* The `ssim` feature's definition (spec/ssim.md, docs/spec/ssim.md), written
 * once for every backend in the subset of core/portable.h: the window's taps and
 * the weight a truncated window keeps, the term's constants and its operation
 * order, and the exact sum's fixed point. The CPU reference and kernels, the
 * CUDA kernels and the OpenCL kernels all take these from here; an optimised
 * routine that restates one (a SIMD lane form, a bit trick) is a twin, tested
 * against the scalar reference bit for bit.
 */
#ifndef EXACTVQ_METRICS_SSIM_DEFINITION_H
#define EXACTVQ_METRICS_SSIM_DEFINITION_H

#include "core/portable.h"

/* ---- the window ----------------------------------------------------------- */

#define EXACTVQ_SSIM_RADIUS 4
#define EXACTVQ_SSIM_TAPS 9

/* The taps g[0..8], the Gaussian of sigma 1.5 in 8-bit fixed point (they sum to
 * 256), as an initialiser list for tables, and g[k] as a function (0 outside
 * 0..8) for code that wants them as constants once unrolled. */
#define EXACTVQ_SSIM_TAP_LIST 2, 9, 28, 55, 68, 55, 28, 9, 2
EXACTVQ_CONSTEXPR_FN exactvq_u32 ssim_tap(int k) {
  return k == 0 || k == 8   ? 2u
         : k == 1 || k == 7 ? 9u
         : k == 2 || k == 6 ? 28u
         : k == 3 || k == 5 ? 55u
         : k == 4           ? 68u
                            : 0u;
}

/* The sum of the taps whose sample pos - 4 + k lies in [0, size): the weight a
 * window at `pos` of a line of `size` samples keeps (256 inside). A window's
 * weight w is the product of its column's and its row's. */
EXACTVQ_CONSTEXPR_FN exactvq_u32 ssim_kept_weight(int pos, int size) {
  if (pos >= EXACTVQ_SSIM_RADIUS && pos + EXACTVQ_SSIM_RADIUS < size) return 256u;
  exactvq_u32 w = 0;
  EXACTVQ_UNROLL
  for (int k = 0; k < EXACTVQ_SSIM_TAPS; ++k) {
    const int i = pos - EXACTVQ_SSIM_RADIUS + k;
    if (i >= 0 && i < size) w += ssim_tap(k);
  }
  return w;
}

/* ---- the term --------------------------------------------------------------
 * In binary64, every operation rounded to nearest even on its own, in this
 * order; MUL, ADD, SUB and DIV name the number type's correctly rounded
 * operations (the binary64 operators with contraction off, CUDA's _rn
 * intrinsics, Highway's lane operations, softfp's), so every backend spells
 * the same sequence. Conversions of the integer moments are exact (each value
 * is below 2^53). */

/* The binary64 bit patterns of the literals 0.01 and 0.03. */
#define EXACTVQ_SSIM_P01_BITS EXACTVQ_U64_C(0x3F847AE147AE147B)
#define EXACTVQ_SSIM_P03_BITS EXACTVQ_U64_C(0x3F9EB851EB851EB8)

/* The window-free parts of c1 and c2 at peak Md = 2^b - 1: mm_k1 = (Md * Md) *
 * (0.01 * 0.01), mm_k2 = (Md * Md) * (0.03 * 0.03); Md * Md is exact (< 2^32). */
#define EXACTVQ_SSIM_CONSTANTS(MUL, md, p01, p03, mm_k1, mm_k2) \
  do {                                                          \
    (mm_k1) = MUL(MUL(md, md), MUL(p01, p01));                  \
    (mm_k2) = MUL(MUL(md, md), MUL(p03, p03));                  \
  } while (0)

/* c1 = (mm_k1 * wd) * wd and c2 = (mm_k2 * wd) * wd for a window of weight wd. */
#define EXACTVQ_SSIM_WINDOW_CONSTANTS(MUL, mm_k1, mm_k2, wd, c1, c2) \
  do {                                                               \
    (c1) = MUL(MUL(mm_k1, wd), wd);                                  \
    (c2) = MUL(MUL(mm_k2, wd), wd);                                  \
  } while (0)

/* term = ((wd * A) * B) / (C * D) of a window (T: the number type):
 *   A = 2 * mxy + c1                  B = c2 + 2 * (xy * wd - mxy)
 *   C = (mx2 + my2) + c1              D = (((x2 * wd - mx2) + y2 * wd) - my2) + c2
 * with mx2 = mux * mux, mxy = mux * muy, my2 = muy * muy. */
#define EXACTVQ_SSIM_TERM(T, MUL, ADD, SUB, DIV, two, wd, c1, c2, mux, muy, x2, xy, y2, term) \
  do {                                                                                        \
    const T ssim_mx2_ = MUL(mux, mux);                                                        \
    const T ssim_mxy_ = MUL(mux, muy);                                                        \
    const T ssim_my2_ = MUL(muy, muy);                                                        \
    const T ssim_a_ = ADD(MUL(two, ssim_mxy_), c1);                                           \
    const T ssim_b_ = ADD(c2, MUL(two, SUB(MUL(xy, wd), ssim_mxy_)));                         \
    const T ssim_c_ = ADD(ADD(ssim_mx2_, ssim_my2_), c1);                                     \
    const T ssim_d_ = ADD(SUB(ADD(SUB(MUL(x2, wd), ssim_mx2_), MUL(y2, wd)), ssim_my2_), c2); \
    (term) = DIV(MUL(MUL(wd, ssim_a_), ssim_b_), MUL(ssim_c_, ssim_d_));                      \
  } while (0)

/* ---- the exact sum's fixed point --------------------------------------------
 * q = round_half_even(term * 2^64), a signed 128-bit integer in two's
 * complement, for term = (-1)^neg * sig * 2^exp with sig < 2^53 and |term| <
 * 2^62 (a term lies within +-2^17). Straight from the parts: a shift, or a
 * shift and a rounding of the bits shifted out. */
EXACTVQ_FN exactvq_i128 ssim_fixed64_of(exactvq_u64 sig, exactvq_i32 exp, exactvq_i32 neg) {
  const exactvq_i32 shift = exp + 64; /* q = sig * 2^shift */
  exactvq_i128 q;
  q.lo = 0;
  q.hi = 0;
  if (sig == 0) return q;
  if (shift >= 0) {
    if (shift == 0) {
      q.lo = sig;
    } else if (shift < 64) {
      q.lo = sig << shift;
      q.hi = sig >> (64 - shift);
    } else {
      q.hi = sig << (shift - 64);
    }
  } else if (-shift > 54) {
    /* sig * 2^-55 < 1/2: rounds to 0 */
  } else {
    const exactvq_u32 r = (exactvq_u32)(-shift);
    exactvq_u64 v = sig >> r;
    const exactvq_u64 rest = sig & (((exactvq_u64)1 << r) - 1);
    const exactvq_u64 halfway = (exactvq_u64)1 << (r - 1);
    if (rest > halfway || (rest == halfway && (v & 1))) v += 1;
    q.lo = v;
  }
  if (neg) {
    q.lo = ~q.lo + 1;
    q.hi = ~q.hi + (q.lo == 0 ? (exactvq_u64)1 : (exactvq_u64)0);
  }
  return q;
}

#endif /* EXACTVQ_METRICS_SSIM_DEFINITION_H */
