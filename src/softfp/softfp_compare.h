/* softfp comparisons, as C's on binary64. */
#ifndef EXACTVQ_SOFTFP_COMPARE_H
#define EXACTVQ_SOFTFP_COMPARE_H

#include "softfp/softfp_primitives.h"

/* |a| < |b| (zero the smallest; a normal significand keeps the exponent's order). */
SOFTFP_FN int softfp_magnitude_less(softfp a, softfp b) {
  if (b.sig == 0) return 0;
  if (a.sig == 0) return 1;
  return a.exp < b.exp || (a.exp == b.exp && a.sig < b.sig);
}

/* a < b, ordered (C's < on binary64; -0 equals +0). */
SOFTFP_FN int softfp_less(softfp a, softfp b) {
  if (a.sig == 0 && b.sig == 0) return 0;
  if (a.neg != b.neg) return a.neg;
  return a.neg ? softfp_magnitude_less(b, a) : softfp_magnitude_less(a, b);
}

#endif /* EXACTVQ_SOFTFP_COMPARE_H */
