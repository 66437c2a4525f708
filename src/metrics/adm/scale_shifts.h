// The shifts and roundings of a scale's integer sums, as libvmaf forms them: what
// the scalar driver (reference.cpp), the scores (scores.cpp) and the engines' plan
// (scale_plan.cpp) share.
#pragma once

#include <bit>
#include <cstdint>

#include "metrics/adm/band.h"
#include "metrics/adm/masking.h"

namespace exactvq::adm {

// ceil(log2(n)) for n >= 1: libvmaf's ceil(log2((double)n)) is exact for
// these integers (log2 of a non-power of two is never within rounding of an integer).
inline int ceil_log2(int64_t n) {
  return n <= 1 ? 0 : static_cast<int>(std::bit_width(static_cast<uint64_t>(n - 1)));
}

// libvmaf's (uint32_t)pow(2, shift - 1) with shift unsigned: 0 for shift 0
// (pow(2, 2^32 - 1) is infinite; x86-64's conversion leaves 0).
inline int64_t half_of_power(int shift) { return shift > 0 ? int64_t{1} << (shift - 1) : 0; }

// Scale 0's denominator shift: ceil(log2(area of the scored region)) - 20, at least 0.
inline int denominator_shift_s0(const Region& g) {
  const int shift = ceil_log2(int64_t{g.bottom - g.top} * (g.right - g.left)) - 20;
  return shift < 0 ? 0 : shift;
}

// The masking's cube shifts of a band `w` wide (masking.h's CubeShift).
inline CubeShift masking_cube_s0(int w) {
  const int hv_shift = ceil_log2(w) - 4, d_shift = ceil_log2(w) - 3;
  return {{hv_shift, hv_shift, d_shift},
          {half_of_power(hv_shift), half_of_power(hv_shift), half_of_power(d_shift)}};
}
inline CubeShift masking_cube_s123(int w) {
  const int cube_shift = ceil_log2(w);
  return {{cube_shift, cube_shift, cube_shift},
          {half_of_power(cube_shift), half_of_power(cube_shift), half_of_power(cube_shift)}};
}

}  // namespace exactvq::adm
