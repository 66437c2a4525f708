// The table of IBM's atan2 (glibc 2.36, uatan.tbl's cij): for i in [0, 241),
// a point c near (i + 16)/256, atan(c), and the Taylor coefficients of atan
// about c (the first derivative, then the next four), for |u - c| <= 1/512.
#pragma once

namespace exactvq::libm::detail {

struct AtanNode {
  double c, atan_c, d1, d2, d3, d4, d5;
};
extern const AtanNode kAtanNodes[241];

}  // namespace exactvq::libm::detail
