// ADM's decoupling with native binary64, for the host and for CUDA devices
// with fp64: the per-sample definition (definition.h) with its angle test and
// enhancement in double. The scalar reference's row routine (decouple.cpp) and
// the CUDA kernels (through stages.h) call these; OpenCL devices, without
// double, run the same steps on softfp (softfp_decouple.h). Contraction is off
// on both (-ffp-contract=off, -fmad=false): each binary64 operation is rounded
// on its own.
#pragma once

#include <cstdint>

#include "metrics/adm/definition.h"

#if defined(__CUDACC__)
#define EXACTVQ_ADM_HD __host__ __device__ inline
#else
#define EXACTVQ_ADM_HD inline
#endif

namespace exactvq::adm::pixel {

// The number type's operations for definition.h's binary64 steps.
EXACTVQ_ADM_HD double scaled_float_of(int64_t v) {
  return static_cast<double>(static_cast<float>(v)) / 4096.0;
}
EXACTVQ_ADM_HD double multiply(double a, double b) { return a * b; }
EXACTVQ_ADM_HD bool less(double a, double b) { return a < b; }
EXACTVQ_ADM_HD bool at_least(double a, double b) { return a >= b; }
EXACTVQ_ADM_HD double from_int(int64_t v) { return static_cast<double>(v); }
template <typename T>
EXACTVQ_ADM_HD T truncate(double v) {
  return static_cast<T>(v);
}

// libvmaf's angle test (definition.h's EXACTVQ_ADM_WITHIN_ONE_DEGREE).
EXACTVQ_ADM_HD bool within_one_degree(const AdmAngleInputs& in) {
  bool within = false;
  EXACTVQ_ADM_WITHIN_ONE_DEGREE(double, scaled_float_of, multiply, at_least, 0.0,
                                static_cast<double>(EXACTVQ_ADM_COS_ONE_DEGREE_SQUARED), in,
                                within);
  return within;
}

// The enhancement of a restored value rst (definition.h's EXACTVQ_ADM_ENHANCE)
// unless adm_keeps_restored holds.
template <typename T>
EXACTVQ_ADM_HD T enhance(T rst, int64_t k, T o, T t, bool angle, double gain_limit) {
  if (adm_keeps_restored(angle, k, o)) return rst;
  T out;
  EXACTVQ_ADM_ENHANCE(double, from_int, multiply, less, truncate<T>, gain_limit, rst, o, t, out);
  return out;
}

// One scale-0 sample of the three orientations (h, v, d): o the reference's,
// t the distorted's; the restored and additive parts out.
EXACTVQ_ADM_HD void decouple_s0(const int16_t o[3], const int16_t t[3], double gain_limit,
                                int16_t restored[3], int16_t additive[3]) {
  const bool angle = within_one_degree(adm_angle_inputs_s0(o, t));
  for (int b = 0; b < 3; ++b) {
    const int32_t k = adm_gain_s0(o[b], t[b]);
    const int16_t rst = enhance<int16_t>(adm_restore_s0(k, o[b]), k, o[b], t[b], angle, gain_limit);
    restored[b] = rst;
    additive[b] = adm_additive_s0(t[b], rst);
  }
}

// The same at scales 1..3 (32-bit bands, the divisor reduced to 15 bits first).
EXACTVQ_ADM_HD void decouple_s123(const int32_t o[3], const int32_t t[3], double gain_limit,
                                  int32_t restored[3], int32_t additive[3]) {
  const bool angle = within_one_degree(adm_angle_inputs_s123(o, t));
  for (int b = 0; b < 3; ++b) {
    const int64_t k = adm_gain_s123(o[b], t[b]);
    const int32_t rst =
        enhance<int32_t>(adm_restore_s123(k, o[b]), k, o[b], t[b], angle, gain_limit);
    restored[b] = rst;
    additive[b] = adm_additive_s123(t[b], rst);
  }
}

}  // namespace exactvq::adm::pixel
