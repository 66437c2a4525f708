// glibc 2.36's sin (IBM Accurate Mathematical Library, s_sin.c, FMA variant),
// pinned: the identity below 2^-26; a table node and short polynomials below
// 0.8555 (sincos_core.h); pi/2 - |x| through the cosine kernel up to 2.4263;
// beyond, reduction by pi/2 to a quadrant. Host and device alike (portable.h); libm::sin is
// this function.
#pragma once

#include <cstdint>

#include "libm/fp_bits.h"
#include "libm/portable.h"
#include "libm/sincos_core.h"

namespace exactvq::libm::portable {

EXACTVQ_LIBM_FN double sin(double x) {
  using namespace detail;
  const uint32_t k = static_cast<uint32_t>(bits_of(x) >> 32) & 0x7fffffffu;
  if (k < 0x3e500000u) return x;  // |x| < 2^-26
  if (k < 0x3feb6000u) return sin_kernel(x, 0.0);
  if (k < 0x400368fdu) {
    // sin(x) = cos(pi/2 - |x|) with x's sign, pi/2 as a double-double.
    const double t = 0x1.921fb54442d18p0 - abs_of(x);
    return with_sign_of(cos_kernel(t, 0x1.1a62633145c07p-54), x);
  }
  double a, da;
  if (k < 0x419921fbu) {
    const int n = reduce_by_half_pi(x, &a, &da);
    return sin_cos_in_quadrant(a, da, n);
  }
  if (k < 0x7ff00000u) {
    const int n = reduce_by_half_pi_large(x, &a, &da);
    return sin_cos_in_quadrant(a, da, n);
  }
  return invalid_result(x);  // infinity or NaN: x / x
}

}  // namespace exactvq::libm::portable
