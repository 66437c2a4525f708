/* binary32 on softfp for the float library and ciede: softfp_binary32.h's
 * conversions and float operations (correctly rounded, subnormal results
 * included) as out-of-line calls on CUDA (EXACTVQ_SOFTFP_CALL_FN), which keeps
 * nvcc's time and the kernels' registers in check where a function takes many
 * of them. In the subset of core/portable.h. Tested against the host's float
 * arithmetic (tests/libm/softfp_libm_test.cpp). */
#ifndef EXACTVQ_LIBM_BINARY32_SOFTFP_H
#define EXACTVQ_LIBM_BINARY32_SOFTFP_H

#include "softfp/softfp.h"
#include "softfp/softfp_binary32.h"
#include "softfp/softfp_call.h"

/* x rounded to binary32, nearest even, as its bit pattern. */
EXACTVQ_SOFTFP_CALL_FN softfp_u32 exactvq_softfp_to_f32(softfp x) { return softfp_to_f32_bits(x); }

SOFTFP_FN softfp exactvq_softfp_of_f32(softfp_u32 bits) { return softfp_from_f32_bits(bits); }

/* Float a + b, a - b, a * b, a / b (b not zero), correctly rounded. */
EXACTVQ_SOFTFP_CALL_FN softfp_u32 exactvq_f32_add(softfp_u32 a, softfp_u32 b) {
  return softfp_f32_add(a, b);
}
EXACTVQ_SOFTFP_CALL_FN softfp_u32 exactvq_f32_sub(softfp_u32 a, softfp_u32 b) {
  return softfp_f32_sub(a, b);
}
EXACTVQ_SOFTFP_CALL_FN softfp_u32 exactvq_f32_mul(softfp_u32 a, softfp_u32 b) {
  return softfp_f32_mul(a, b);
}
EXACTVQ_SOFTFP_CALL_FN softfp_u32 exactvq_f32_div(softfp_u32 a, softfp_u32 b) {
  return softfp_f32_div(a, b);
}

#endif /* EXACTVQ_LIBM_BINARY32_SOFTFP_H */
