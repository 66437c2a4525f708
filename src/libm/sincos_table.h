// The table IBM's sin and cos share (glibc 2.36, sincos.tbl): for i in
// [0, 110), sin(i/128) and cos(i/128), each as a double and the double of
// its remainder.
#pragma once

namespace exactvq::libm::detail {

struct SinCosEntry {
  double sin_hi, sin_lo, cos_hi, cos_lo;
};
extern const SinCosEntry kSinCosTable[110];

}  // namespace exactvq::libm::detail
