// A pixel's vif terms (definition.h) with native binary64, for the host and
// for CUDA devices with fp64: the one function the CPU reference and the
// native CUDA kernel both call. Contraction is off on both (-ffp-contract=off,
// -fmad=false), so each operation is rounded on its own.
#pragma once

#include <cstdint>

#include "metrics/vif/definition.h"

#if defined(__CUDACC__)
#define EXACTVQ_VIF_HD __host__ __device__ inline
#else
#define EXACTVQ_VIF_HD inline
#endif

namespace exactvq::vif {

// C's double-to-integer conversions as x86-64 performs them: toward zero, and
// the "integer indefinite" (the most negative value) when out of range, so
// that even values libvmaf never meets convert alike everywhere.
EXACTVQ_VIF_HD int32_t truncate_to_int32(double v) {
  if (!(v > -2147483649.0 && v < 2147483648.0)) return INT32_MIN;
  return int32_t(v);
}

EXACTVQ_VIF_HD int64_t truncate_to_int64(double v) {
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return INT64_MIN;
  return int64_t(v);
}

EXACTVQ_VIF_HD double vif_from_i32(int32_t v) { return double(v); }
EXACTVQ_VIF_HD bool vif_less(double a, double b) { return a < b; }

// The pixel with sigmas `s` added to `sums`; `eps` is 65536 * 1.0e-10.
EXACTVQ_VIF_HD void add_pixel_terms(VifSigmas s, double eps, double gain_limit,
                                    const unsigned short* table, VifSums* sums) {
  if (!vif_takes_log(s)) {
    vif_add_flat(s, sums);
    return;
  }
  vif_add_den_log(s, table, sums);
  if (!vif_takes_gain(s)) return;
  int32_t residual = 0;
  int64_t gain_part = 0;
#define EXACTVQ_VIF_NATIVE_ADD(a, b) ((a) + (b))
#define EXACTVQ_VIF_NATIVE_SUB(a, b) ((a) - (b))
#define EXACTVQ_VIF_NATIVE_MUL(a, b) ((a) * (b))
#define EXACTVQ_VIF_NATIVE_DIV(a, b) ((a) / (b))
  EXACTVQ_VIF_GAIN(double, vif_from_i32, EXACTVQ_VIF_NATIVE_ADD, EXACTVQ_VIF_NATIVE_SUB,
                   EXACTVQ_VIF_NATIVE_MUL, EXACTVQ_VIF_NATIVE_DIV, vif_less, truncate_to_int32,
                   truncate_to_int64, eps, gain_limit, s, residual, gain_part);
#undef EXACTVQ_VIF_NATIVE_ADD
#undef EXACTVQ_VIF_NATIVE_SUB
#undef EXACTVQ_VIF_NATIVE_MUL
#undef EXACTVQ_VIF_NATIVE_DIV
  vif_add_num_log(residual, gain_part, table, sums);
}

}  // namespace exactvq::vif
