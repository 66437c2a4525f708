/* glibc 2.36's log2 in native binary64 for the host and CUDA (a __host__
 * __device__ function in .cu files): libm::log2 (libm/log2.cpp) is this, and
 * the SpEED CUDA kernels call it, so both run the same text
 * (libm/log2_steps.h). On the device every operation is an intrinsic with its
 * rounding named (__dadd_rn, __dmul_rn, __fma_rn: nvcc contracts nothing
 * anyway under -fmad=false); on the host the build's -ffp-contract=off keeps
 * each operation apart and __builtin_fma is the correctly rounded fma. Not for
 * OpenCL (no double there: libm/log2_softfp.h). */
#ifndef EXACTVQ_LIBM_LOG2_DOUBLE_H
#define EXACTVQ_LIBM_LOG2_DOUBLE_H

#include "core/portable.h"
#include "core/portable_bits.h"
#include "libm/log2_table.h"

#define EXACTVQ_LOG2_T double
#define EXACTVQ_LOG2_CONST(bits) exactvq_f64_of_bits(bits)
#define EXACTVQ_LOG2_FROM_INT(k) ((double)(k))
#define EXACTVQ_LOG2_NEG(a) (-(a))
#if defined(__CUDA_ARCH__)
#define EXACTVQ_LOG2_ADD(a, b) __dadd_rn((a), (b))
#define EXACTVQ_LOG2_SUB(a, b) __dsub_rn((a), (b))
#define EXACTVQ_LOG2_MUL(a, b) __dmul_rn((a), (b))
#define EXACTVQ_LOG2_FMA(a, b, c) __fma_rn((a), (b), (c))
#else
#define EXACTVQ_LOG2_ADD(a, b) ((a) + (b))
#define EXACTVQ_LOG2_SUB(a, b) ((a) - (b))
#define EXACTVQ_LOG2_MUL(a, b) ((a) * (b))
#define EXACTVQ_LOG2_FMA(a, b, c) __builtin_fma((a), (b), (c))
#endif
#define EXACTVQ_LOG2_NEAR_ONE exactvq_log2_f64_near_one
#define EXACTVQ_LOG2_REDUCED exactvq_log2_f64_reduced
#include "libm/log2_steps.h"

/* log2(x) with glibc's results for every operand: -inf for +-0, +inf for
 * +inf, NaN for negative operands and NaN (the bits x86 gives glibc's
 * (x - x) / (x - x): the default NaN 0xFFF8000000000000 for a finite or
 * infinite negative x, x quieted for a NaN; written as bit patterns so that a
 * GPU, whose NaN results are canonical, gives the same). */
EXACTVQ_FN double exactvq_log2_f64(double x) {
  exactvq_u64 ix = exactvq_f64_bits(x);
  if (ix - EXACTVQ_LOG2_NEAR_ONE_LOW < EXACTVQ_LOG2_NEAR_ONE_HIGH - EXACTVQ_LOG2_NEAR_ONE_LOW) {
    if (ix == EXACTVQ_LOG2_ONE) return 0.0;
    return exactvq_log2_f64_near_one(x);
  }
  const exactvq_u32 top = (exactvq_u32)(ix >> 48);
  if (top - 0x0010u >= 0x7ff0u - 0x0010u) {
    /* Zero, subnormal, negative, infinite or NaN. */
    if (ix * 2 == 0) return exactvq_f64_of_bits(EXACTVQ_U64_C(0xFFF0000000000000));
    if (ix == EXACTVQ_U64_C(0x7FF0000000000000)) return x;
    if ((ix & ~(EXACTVQ_U64_C(1) << 63)) > EXACTVQ_U64_C(0x7FF0000000000000))
      return exactvq_f64_of_bits(ix | (EXACTVQ_U64_C(1) << 51));
    if ((top & 0x8000u) != 0) return exactvq_f64_of_bits(EXACTVQ_U64_C(0xFFF8000000000000));
    /* Subnormal: scaled into the normal range, the exponent taken below -1022. */
    ix = exactvq_f64_bits(x * 4503599627370496.0); /* 2^52: exact */
    ix -= EXACTVQ_U64_C(52) << 52;
  }
  return exactvq_log2_f64_reduced(ix);
}

#endif /* EXACTVQ_LIBM_LOG2_DOUBLE_H */
