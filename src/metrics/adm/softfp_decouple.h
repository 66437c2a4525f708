/* ADM's decoupling (definition.h) with its binary64 steps in softfp, binary64
 * on integers, for devices without fp64 (the OpenCL kernels): the twin of
 * pixel.h's decouple_s0 / decouple_s123, tested against them bit for bit
 * (tests/metrics/adm/softfp_decouple_test.cpp). Every operand softfp sees is zero or
 * normal: the float-rounded integers over 4096 lie in [2^-12, 2^51], their
 * products in [2^-25, 2^103]; the gain limit is in [1, 100] and the restored
 * values are integers below 2^31. Portable subset (core/portable.h).
 */
#ifndef EXACTVQ_METRICS_ADM_SOFTFP_DECOUPLE_H
#define EXACTVQ_METRICS_ADM_SOFTFP_DECOUPLE_H

#include "metrics/adm/definition.h"
#include "softfp/softfp.h"

/* (double)(float)v / 4096.0: v rounded to 24 significant bits, nearest even
 * (C's conversion of an int64 to float, which cannot overflow), then scaled by
 * 2^-12, which is exact. Integers only. */
EXACTVQ_FN softfp adm_softfp_scaled_float_of(exactvq_i64 v) {
  if (v == 0) return softfp_make(0, 0, 0);
  const exactvq_i32 neg = v < 0 ? 1 : 0;
  exactvq_u64 m = neg ? (exactvq_u64)0 - (exactvq_u64)v : (exactvq_u64)v; /* |v| <= 2^63 */
  exactvq_i32 e = 0;
  const exactvq_i32 drop = 40 - softfp_clz64(m); /* bits below the 24 kept */
  if (drop > 0) {
    const exactvq_u64 rest = m & (((exactvq_u64)1 << drop) - 1);
    const exactvq_u64 tie = (exactvq_u64)1 << (drop - 1);
    m >>= drop;
    e = drop;
    if (rest > tie || (rest == tie && (m & 1))) m += 1; /* 2^24 still normalises below */
  }
  const exactvq_i32 s = softfp_clz64(m) - 11;
  return softfp_make(m << s, e - s - 12, neg);
}

EXACTVQ_FN softfp adm_softfp_from_int(exactvq_i64 v) { return softfp_from_i53(v); }
/* a >= b for operands that are not NaN. */
EXACTVQ_FN int adm_softfp_at_least(softfp a, softfp b) { return !softfp_less(a, b); }
EXACTVQ_FN exactvq_i16 adm_softfp_truncate_i16(softfp x) {
  return (exactvq_i16)softfp_truncate_i32(x);
}

/* libvmaf's angle test (EXACTVQ_ADM_WITHIN_ONE_DEGREE) on softfp. */
EXACTVQ_FN int adm_softfp_within_one_degree(AdmAngleInputs in) {
  int within = 0;
  const softfp zero = softfp_make(0, 0, 0);
  const softfp cos2 = softfp_from_bits(EXACTVQ_ADM_COS_ONE_DEGREE_SQUARED_BITS);
  EXACTVQ_ADM_WITHIN_ONE_DEGREE(softfp, adm_softfp_scaled_float_of, softfp_mul, adm_softfp_at_least,
                                zero, cos2, in, within);
  return within;
}

/* One scale-0 sample of the three orientations (h, v, d): o the reference's,
 * t the distorted's; the restored and additive parts out. gain_limit is the
 * option's value. */
EXACTVQ_FN void adm_softfp_decouple_s0(const exactvq_i16 o[3], const exactvq_i16 t[3],
                                       softfp gain_limit, exactvq_i16 restored[3],
                                       exactvq_i16 additive[3]) {
  const int angle = adm_softfp_within_one_degree(adm_angle_inputs_s0(o, t));
  for (int b = 0; b < 3; ++b) {
    const exactvq_i32 k = adm_gain_s0(o[b], t[b]);
    exactvq_i16 rst = adm_restore_s0(k, o[b]);
    if (!adm_keeps_restored(angle, k, o[b]))
      EXACTVQ_ADM_ENHANCE(softfp, adm_softfp_from_int, softfp_mul, softfp_less,
                          adm_softfp_truncate_i16, gain_limit, rst, o[b], t[b], rst);
    restored[b] = rst;
    additive[b] = adm_additive_s0(t[b], rst);
  }
}

/* The same at scales 1..3. */
EXACTVQ_FN void adm_softfp_decouple_s123(const exactvq_i32 o[3], const exactvq_i32 t[3],
                                         softfp gain_limit, exactvq_i32 restored[3],
                                         exactvq_i32 additive[3]) {
  const int angle = adm_softfp_within_one_degree(adm_angle_inputs_s123(o, t));
  for (int b = 0; b < 3; ++b) {
    const exactvq_i64 k = adm_gain_s123(o[b], t[b]);
    exactvq_i32 rst = adm_restore_s123(k, o[b]);
    if (!adm_keeps_restored(angle, k, o[b]))
      EXACTVQ_ADM_ENHANCE(softfp, adm_softfp_from_int, softfp_mul, softfp_less, softfp_truncate_i32,
                          gain_limit, rst, o[b], t[b], rst);
    restored[b] = rst;
    additive[b] = adm_additive_s123(t[b], rst);
  }
}

#endif /* EXACTVQ_METRICS_ADM_SOFTFP_DECOUPLE_H */
