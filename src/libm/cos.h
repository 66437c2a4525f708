// glibc 2.36's cos (IBM Accurate Mathematical Library, s_sin.c, FMA variant),
// pinned: 1 below 2^-27; a table node and short polynomials below 0.8555
// (sincos_core.h); sin(pi/2 - |x|) up to 2.4263; beyond, reduction by pi/2
// to a quadrant, one quadrant on from sin's. Host and device alike (portable.h); libm::cos is
// this function.
#pragma once

#include <cstdint>

#include "libm/fp_bits.h"
#include "libm/portable.h"
#include "libm/sincos_core.h"

namespace exactvq::libm::portable {

EXACTVQ_LIBM_FN double cos(double x) {
  using namespace detail;
  const uint32_t k = static_cast<uint32_t>(bits_of(x) >> 32) & 0x7fffffffu;
  if (k < 0x3e400000u) return 1.0;  // |x| < 2^-27
  if (k < 0x3feb6000u) return cos_kernel(x, 0.0);
  if (k < 0x400368fdu) {
    // cos(x) = sin(pi/2 - |x|), pi/2 - |x| as a double-double.
    const double y = 0x1.921fb54442d18p0 - abs_of(x);
    const double a = y + 0x1.1a62633145c07p-54;
    const double da = (y - a) + 0x1.1a62633145c07p-54;
    return sin_kernel(a, da);
  }
  double a, da;
  if (k < 0x419921fbu) {
    const int n = reduce_by_half_pi(x, &a, &da);
    return sin_cos_in_quadrant(a, da, n + 1);
  }
  if (k < 0x7ff00000u) {
    const int n = reduce_by_half_pi_large(x, &a, &da);
    return sin_cos_in_quadrant(a, da, n + 1);
  }
  return invalid_result(x);  // infinity or NaN: x / x
}

}  // namespace exactvq::libm::portable
