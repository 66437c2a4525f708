/* softfp_add_bits: binary64 addition on bit patterns for every operand (zeros,
 * subnormals, normals, infinities, NaN), round to nearest even, with the NaN
 * results of x86's SSE2 `addsd`, the instruction the CPU reference's sequential
 * sums compile to: a NaN first operand comes back quieted, else a NaN second
 * operand quieted, and infinities of opposite signs give the default NaN
 * 0xFFF8000000000000. For the raster-order sum on devices without fp64
 * (docs/spec/raster_sum.md: the runs no record may replay are added term by
 * term with this). Integers only, in the subset of core/portable.h.
 */
#ifndef EXACTVQ_SOFTFP_ADD_BITS_H
#define EXACTVQ_SOFTFP_ADD_BITS_H

#include "softfp/softfp.h" /* the library whole: its embedding into OpenCL sources expects it */

#define SOFTFP_SIGN_BIT (SOFTFP_U64_C(1) << 63)
#define SOFTFP_FRACTION_MASK (SOFTFP_HIDDEN - 1)

/* The bits of (-1)^neg * m * 2^(x - 1075) for m != 0, where a jammed bit in m (if
 * any) lies at least 2 bits below m's 53rd bit after normalisation: rounded to
 * nearest even, subnormal and overflowing results included. */
SOFTFP_FN softfp_u64 softfp_pack_rounded(softfp_u64 neg, softfp_u64 m, softfp_i32 x) {
  const softfp_i32 s = softfp_clz64(m);
  m <<= s;
  /* m's top 53 bits are the significand of field E when E >= 1 */
  softfp_i32 field = x - s + 11;
  if (field < 1) {
    m = softfp_shift_right_jam(m, (softfp_u32)(1 - field));
    field = 1;
  }
  softfp_u64 sig = m >> 11;
  const softfp_u64 rest = m & 0x7FF;
  if (rest > 0x400 || (rest == 0x400 && (sig & 1))) sig += 1;
  if (sig == SOFTFP_LIMIT) {
    sig = SOFTFP_HIDDEN;
    field += 1;
  }
  if (field >= 0x7FF) return (neg << 63) | (SOFTFP_U64_C(0x7FF) << 52);
  /* (field - 1) * 2^52 + sig: the hidden bit carries into the exponent field,
   * and a subnormal significand (sig < 2^52 with field 1) stays one */
  return (neg << 63) | (((softfp_u64)(field - 1) << 52) + sig);
}

/* a + b, the bits IEEE 754 binary64 addition (round to nearest even) returns on
 * x86 SSE2 for a as the first operand. */
SOFTFP_FN softfp_u64 softfp_add_bits(softfp_u64 a, softfp_u64 b) {
  const softfp_u32 fa = (softfp_u32)(a >> 52) & 0x7FFu, fb = (softfp_u32)(b >> 52) & 0x7FFu;
  if (fa == 0x7FFu || fb == 0x7FFu) {
    const softfp_u64 quiet = SOFTFP_U64_C(1) << 51;
    if (fa == 0x7FFu && (a & SOFTFP_FRACTION_MASK)) return a | quiet;
    if (fb == 0x7FFu && (b & SOFTFP_FRACTION_MASK)) return b | quiet;
    if (fa == 0x7FFu && fb == 0x7FFu && ((a ^ b) & SOFTFP_SIGN_BIT))
      return SOFTFP_U64_C(0xFFF8000000000000);
    return fa == 0x7FFu ? a : b;
  }
  /* Finite: the larger magnitude first (bit patterns order finite magnitudes). */
  if ((a & ~SOFTFP_SIGN_BIT) < (b & ~SOFTFP_SIGN_BIT)) {
    const softfp_u64 t = a;
    a = b;
    b = t;
  }
  const softfp_u32 ea = (softfp_u32)(a >> 52) & 0x7FFu, eb = (softfp_u32)(b >> 52) & 0x7FFu;
  const softfp_u64 ma = (a & SOFTFP_FRACTION_MASK) | (ea ? SOFTFP_HIDDEN : 0);
  const softfp_u64 mb = (b & SOFTFP_FRACTION_MASK) | (eb ? SOFTFP_HIDDEN : 0);
  if (mb == 0) {
    if (ma == 0) return a & b & SOFTFP_SIGN_BIT; /* -0 only for -0 + -0 */
    return a;
  }
  /* value = m * 2^(x - 1075), x = max(field, 1); 10 spare bits below each
   * significand, the smaller one shifted under the larger with jamming */
  const softfp_i32 xa = ea ? (softfp_i32)ea : 1, xb = eb ? (softfp_i32)eb : 1;
  const softfp_u32 gap = (softfp_u32)(xa - xb);
  const softfp_u64 am = ma << 10;
  softfp_u64 bm = mb << 10;
  if (gap != 0) bm = softfp_shift_right_jam(bm, gap);
  const softfp_u64 neg = a >> 63;
  if (((a ^ b) >> 63) == 0) return softfp_pack_rounded(neg, am + bm, xa - 10);
  /* A difference: exact for gap <= 1; for gap >= 2 it keeps at least 61 bits, so
   * the jammed bit stays far below the rounding position. */
  const softfp_u64 diff = am - bm;
  if (diff == 0) return 0; /* x - x = +0 under round to nearest */
  return softfp_pack_rounded(neg, diff, xa - 10);
}

#endif /* EXACTVQ_SOFTFP_ADD_BITS_H */
