/* softfp conversions toward zero to integers, as C's casts on x86-64. */
#ifndef EXACTVQ_SOFTFP_TRUNCATE_H
#define EXACTVQ_SOFTFP_TRUNCATE_H

#include "softfp/softfp_primitives.h"

/* floor(|x|), and whether it fits in 64 bits (*fits = 0 beyond). */
SOFTFP_FN softfp_u64 softfp_truncated_magnitude(softfp x, int* fits) {
  *fits = 1;
  if (x.sig == 0 || x.exp <= -64) return 0;
  if (x.exp < 0) return x.sig >> (softfp_u32)(-x.exp);
  if (x.exp > 11) { /* sig * 2^exp >= 2^64 */
    *fits = 0;
    return 0;
  }
  return x.sig << (softfp_u32)x.exp;
}

/* C's conversion toward zero to int32 as x86-64 does it: the most negative
 * value when x is outside (-2^31 - 1, 2^31). */
SOFTFP_FN softfp_i32 softfp_truncate_i32(softfp x) {
  int fits = 0;
  const softfp_u64 t = softfp_truncated_magnitude(x, &fits);
  const softfp_u64 bound = x.neg ? (softfp_u64)1 << 31 : ((softfp_u64)1 << 31) - 1;
  if (!fits || t > bound) return (softfp_i32)((softfp_u32)1 << 31);
  return x.neg ? (softfp_i32)(softfp_u32)(0u - (softfp_u32)t) : (softfp_i32)t;
}

/* The same to int64: the most negative value outside [-2^63, 2^63). */
SOFTFP_FN softfp_i64 softfp_truncate_i64(softfp x) {
  int fits = 0;
  const softfp_u64 t = softfp_truncated_magnitude(x, &fits);
  const softfp_u64 bound = x.neg ? (softfp_u64)1 << 63 : ((softfp_u64)1 << 63) - 1;
  if (!fits || t > bound) return (softfp_i64)((softfp_u64)1 << 63);
  return x.neg ? (softfp_i64)((softfp_u64)0 - t) : (softfp_i64)t;
}

#endif /* EXACTVQ_SOFTFP_TRUNCATE_H */
