/* glibc 2.36's atan2 (libm/atan2.h) on softfp, for devices without fp64
 * (OpenCL): the same steps (u = the smaller of |x|, |y| over the larger with
 * its remainder; an odd polynomial below 1/16, else the Taylor series about the
 * nearest of 241 nodes; the quadrant's pi/2 or pi; y's sign last), each
 * binary64 operation a correctly rounded softfp operation and each fused one
 * softfp_fma, so it returns libm::atan2's bits for finite x and y, not both
 * zero, with |x| and |y| zero or within [2^-500, 2^500] (glibc's rescaling
 * beyond is not needed: ciede's operands are floats). In the subset of
 * core/portable.h; the table is libm's own (detail::atan_nodes(): 241 entries
 * of seven words), passed in device memory. Tested against libm::atan2 bit for
 * bit (tests/libm/softfp_libm_test.cpp). */
#ifndef EXACTVQ_LIBM_ATAN2_SOFTFP_H
#define EXACTVQ_LIBM_ATAN2_SOFTFP_H

#include "libm/sincos_softfp.h" /* exactvq_softfp_abs, exactvq_softfp_with_sign_of */

/* libm/atan2.h's constants as bit patterns. */
#define EXACTVQ_ATAN2_PI EXACTVQ_U64_C(0x400921FB54442D18)
#define EXACTVQ_ATAN2_PI_LO EXACTVQ_U64_C(0x3CA1A62633145C07)
#define EXACTVQ_ATAN2_HALF_PI EXACTVQ_U64_C(0x3FF921FB54442D18)
#define EXACTVQ_ATAN2_HALF_PI_LO EXACTVQ_U64_C(0x3C91A62633145C07)
#define EXACTVQ_ATAN2_D3 EXACTVQ_U64_C(0xBFD5555555555555)
#define EXACTVQ_ATAN2_D5 EXACTVQ_U64_C(0x3FC99999999997FD)
#define EXACTVQ_ATAN2_D7 EXACTVQ_U64_C(0xBFC24924923F7603)
#define EXACTVQ_ATAN2_D9 EXACTVQ_U64_C(0x3FBC71C6E5129A3B)
#define EXACTVQ_ATAN2_D11 EXACTVQ_U64_C(0xBFB7458022B13C25)
#define EXACTVQ_ATAN2_D13 EXACTVQ_U64_C(0x3FB375F08B31CBCE)
#define EXACTVQ_ATAN2_TWO52 EXACTVQ_U64_C(0x4330000000000000)
#define EXACTVQ_ATAN2_256 EXACTVQ_U64_C(0x4070000000000000)
#define EXACTVQ_ATAN2_SIXTEENTH EXACTVQ_U64_C(0x3FB0000000000000)

/* D3 + v (D5 + v (D7 + v (D9 + v (D11 + v D13)))), all fused. */
SOFTFP_FN softfp exactvq_softfp_atan_poly(softfp v) {
  softfp p =
      softfp_fma(v, exactvq_softfp_c(EXACTVQ_ATAN2_D13), exactvq_softfp_c(EXACTVQ_ATAN2_D11));
  p = softfp_fma(v, p, exactvq_softfp_c(EXACTVQ_ATAN2_D9));
  p = softfp_fma(v, p, exactvq_softfp_c(EXACTVQ_ATAN2_D7));
  p = softfp_fma(v, p, exactvq_softfp_c(EXACTVQ_ATAN2_D5));
  return softfp_fma(v, p, exactvq_softfp_c(EXACTVQ_ATAN2_D3));
}

/* u^3 (D3 + ... + D13 u^10) (atan_small_u_series). */
SOFTFP_FN softfp exactvq_softfp_atan_small(softfp u, softfp v) {
  const softfp p = exactvq_softfp_atan_poly(v);
  return softfp_mul(softfp_mul(u, v), p);
}

/* The first word of u's node (u in [1/16, 1]): the nearest multiple of 1/256. */
SOFTFP_FN const EXACTVQ_GLOBAL exactvq_u64* exactvq_softfp_atan_node(
    softfp u, const EXACTVQ_GLOBAL exactvq_u64* nodes) {
  const softfp two52 = exactvq_softfp_c(EXACTVQ_ATAN2_TWO52);
  const softfp scaled =
      softfp_sub(softfp_fma(u, exactvq_softfp_c(EXACTVQ_ATAN2_256), two52), two52);
  return nodes + 7 * (softfp_truncate_i32(scaled) - 16);
}

/* d1 + v (d2 + v (d3 + v (d4 + v d5))), all fused (atan_node_series). */
SOFTFP_FN softfp exactvq_softfp_atan_node_series(const EXACTVQ_GLOBAL exactvq_u64* n, softfp v) {
  softfp p = softfp_fma(v, exactvq_softfp_c(n[6]), exactvq_softfp_c(n[5]));
  p = softfp_fma(v, p, exactvq_softfp_c(n[4]));
  p = softfp_fma(v, p, exactvq_softfp_c(n[3]));
  return softfp_fma(v, p, exactvq_softfp_c(n[2]));
}

/* hi + *lo = a + b exactly (glibc's EADD), and a - b (ESUB). */
SOFTFP_FN softfp exactvq_softfp_sum_with_error(softfp a, softfp b, softfp* lo) {
  const softfp hi = softfp_add(a, b);
  *lo = softfp_magnitude_less(b, a) ? softfp_add(softfp_sub(a, hi), b)
                                    : softfp_add(softfp_sub(b, hi), a);
  return hi;
}
SOFTFP_FN softfp exactvq_softfp_difference_with_error(softfp a, softfp b, softfp* lo) {
  const softfp hi = softfp_sub(a, b);
  *lo = softfp_magnitude_less(b, a) ? softfp_sub(softfp_sub(a, hi), b)
                                    : softfp_sub(a, softfp_add(b, hi));
  return hi;
}

/* atan2(y, x) on the domain above. */
EXACTVQ_SOFTFP_CALL_FN softfp softfp_atan2(softfp y, softfp x,
                                           const EXACTVQ_GLOBAL exactvq_u64* nodes) {
  const softfp zero = softfp_make(0, 0, 0);
  const softfp pi = exactvq_softfp_c(EXACTVQ_ATAN2_PI);
  const softfp pi_lo = exactvq_softfp_c(EXACTVQ_ATAN2_PI_LO);
  const softfp half_pi = exactvq_softfp_c(EXACTVQ_ATAN2_HALF_PI);
  const softfp half_pi_lo = exactvq_softfp_c(EXACTVQ_ATAN2_HALF_PI_LO);
  if (y.sig == 0) {
    if (!y.neg) return x.neg ? pi : zero;
    return x.neg ? exactvq_softfp_negated(pi) : softfp_make(0, 0, 1);
  }
  if (x.sig == 0) return y.neg ? exactvq_softfp_negated(half_pi) : half_pi;
  const softfp ax = exactvq_softfp_abs(x), ay = exactvq_softfp_abs(y);
  const softfp_i32 de = (softfp_i32)((softfp_to_bits(ay) >> 52) & 0x7FF) -
                        (softfp_i32)((softfp_to_bits(ax) >> 52) & 0x7FF);
  const int x_positive = softfp_less(zero, x);
  const int y_positive = softfp_less(zero, y);
  if (de >= 57) return y_positive ? half_pi : exactvq_softfp_negated(half_pi);
  if (de <= -57) {
    if (x_positive) return exactvq_softfp_with_sign_of(softfp_div(ay, ax), y);
    return y_positive ? pi : exactvq_softfp_negated(pi);
  }
  const int y_smaller = softfp_less(ay, ax);
  const softfp num = y_smaller ? ay : ax;
  const softfp den = y_smaller ? ax : ay;
  const softfp u = softfp_div(num, den);
  const softfp prod = softfp_mul(den, u);
  const softfp prod_err = softfp_fma(den, u, exactvq_softfp_negated(prod));
  const softfp du = softfp_div(softfp_sub(softfp_sub(num, prod), prod_err), den);
  const int small_u = softfp_less(u, exactvq_softfp_c(EXACTVQ_ATAN2_SIXTEENTH));

  softfp z;
  if (x_positive) {
    if (y_smaller) {
      /* atan(u). */
      if (small_u) {
        const softfp v = softfp_mul(u, u);
        const softfp p = exactvq_softfp_atan_poly(v);
        z = softfp_add(u, softfp_fma(softfp_mul(u, v), p, du));
      } else {
        const EXACTVQ_GLOBAL exactvq_u64* n = exactvq_softfp_atan_node(u, nodes);
        softfp dv;
        const softfp v =
            exactvq_softfp_sum_with_error(softfp_sub(u, exactvq_softfp_c(n[0])), du, &dv);
        softfp q = softfp_fma(v, exactvq_softfp_c(n[6]), exactvq_softfp_c(n[5]));
        q = softfp_fma(v, q, exactvq_softfp_c(n[4]));
        q = softfp_fma(v, q, exactvq_softfp_c(n[3]));
        softfp zz = softfp_mul(softfp_mul(v, v), q);
        zz = softfp_fma(dv, exactvq_softfp_c(n[2]), zz);
        zz = softfp_fma(v, exactvq_softfp_c(n[2]), zz);
        z = softfp_add(zz, exactvq_softfp_c(n[1]));
      }
    } else if (small_u) {
      /* pi/2 - atan(u). */
      const softfp zz = exactvq_softfp_atan_small(u, softfp_mul(u, u));
      softfp cor;
      const softfp t2 = exactvq_softfp_difference_with_error(half_pi, u, &cor);
      const softfp t3 = softfp_sub(softfp_sub(softfp_add(half_pi_lo, cor), du), zz);
      z = softfp_add(t2, t3);
    } else {
      const EXACTVQ_GLOBAL exactvq_u64* n = exactvq_softfp_atan_node(u, nodes);
      const softfp v = softfp_add(softfp_sub(u, exactvq_softfp_c(n[0])), du);
      const softfp zz =
          softfp_fma(exactvq_softfp_negated(v), exactvq_softfp_atan_node_series(n, v), half_pi_lo);
      z = softfp_add(softfp_sub(half_pi, exactvq_softfp_c(n[1])), zz);
    }
  } else if (!y_smaller && softfp_less(ax, ay)) {
    /* pi/2 + atan(u). */
    if (small_u) {
      const softfp zz = exactvq_softfp_atan_small(u, softfp_mul(u, u));
      softfp cor;
      const softfp t2 = exactvq_softfp_sum_with_error(half_pi, u, &cor);
      const softfp t3 = softfp_add(softfp_add(softfp_add(half_pi_lo, cor), du), zz);
      z = softfp_add(t2, t3);
    } else {
      const EXACTVQ_GLOBAL exactvq_u64* n = exactvq_softfp_atan_node(u, nodes);
      const softfp v = softfp_add(softfp_sub(u, exactvq_softfp_c(n[0])), du);
      const softfp zz = softfp_fma(v, exactvq_softfp_atan_node_series(n, v), half_pi_lo);
      z = softfp_add(softfp_add(half_pi, exactvq_softfp_c(n[1])), zz);
    }
  } else {
    /* pi - atan(u). */
    if (small_u) {
      const softfp zz = exactvq_softfp_atan_small(u, softfp_mul(u, u));
      softfp cor;
      const softfp t2 = exactvq_softfp_difference_with_error(pi, u, &cor);
      const softfp t3 = softfp_sub(softfp_sub(softfp_add(pi_lo, cor), du), zz);
      z = softfp_add(t2, t3);
    } else {
      const EXACTVQ_GLOBAL exactvq_u64* n = exactvq_softfp_atan_node(u, nodes);
      const softfp v = softfp_add(softfp_sub(u, exactvq_softfp_c(n[0])), du);
      const softfp zz =
          softfp_fma(exactvq_softfp_negated(v), exactvq_softfp_atan_node_series(n, v), pi_lo);
      z = softfp_add(softfp_sub(pi, exactvq_softfp_c(n[1])), zz);
    }
  }
  return exactvq_softfp_with_sign_of(z, y);
}

#endif /* EXACTVQ_LIBM_ATAN2_SOFTFP_H */
