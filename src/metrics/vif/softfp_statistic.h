/* A pixel's vif terms (definition.h) with the gain steps in softfp, binary64
 * on integers, for devices without fp64 (the OpenCL kernels): the twin of
 * native_statistic.h's add_pixel_terms, tested against it bit for bit
 * (tests/softfp/softfp_vif_test.cpp). Every operand of the gain steps is zero
 * or normal (sigmas below 2^31, sigma1_sq >= 2^17, the gain limit in [1, 100]),
 * as softfp's operations require. Portable subset (core/portable.h).
 */
#ifndef EXACTVQ_METRICS_VIF_SOFTFP_STATISTIC_H
#define EXACTVQ_METRICS_VIF_SOFTFP_STATISTIC_H

#include "metrics/vif/definition.h"
#include "softfp/softfp.h"

EXACTVQ_FN softfp vif_softfp_from_i32(exactvq_i32 v) { return softfp_from_i53((exactvq_i64)v); }

/* The pixel with sigmas `s` added to `sums`; `eps` is 65536 * 1.0e-10
 * (softfp_from_bits(EXACTVQ_VIF_EPS_BITS)), `gain_limit` the option's value. */
EXACTVQ_FN void vif_softfp_add_pixel_terms(VifSigmas s, softfp eps, softfp gain_limit,
                                           const EXACTVQ_GLOBAL unsigned short* table,
                                           VifSums* sums) {
  if (!vif_takes_log(s)) {
    vif_add_flat(s, sums);
    return;
  }
  vif_add_den_log(s, table, sums);
  if (!vif_takes_gain(s)) return;
  exactvq_i32 residual = 0;
  exactvq_i64 gain_part = 0;
  EXACTVQ_VIF_GAIN(softfp, vif_softfp_from_i32, softfp_add, softfp_sub, softfp_mul, softfp_div,
                   softfp_less, softfp_truncate_i32, softfp_truncate_i64, eps, gain_limit, s,
                   residual, gain_part);
  vif_add_num_log(residual, gain_part, table, sums);
}

#endif /* EXACTVQ_METRICS_VIF_SOFTFP_STATISTIC_H */
