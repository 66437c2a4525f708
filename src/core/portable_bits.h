/* A binary32 value's bit pattern and back, and (outside OpenCL C, which has no
 * double) a binary64 value's, in the subset of core/portable.h: the device's
 * reinterpretation where there is one (OpenCL's as_uint, CUDA's
 * __float_as_uint), a copy of the bytes on the host. No conversion happens:
 * every bit, a NaN's payload included, stays where it is.
 */
#ifndef EXACTVQ_CORE_PORTABLE_BITS_H
#define EXACTVQ_CORE_PORTABLE_BITS_H

#include "core/portable.h"

EXACTVQ_FN exactvq_u32 exactvq_f32_bits(float x) {
#if defined(__OPENCL_VERSION__)
  return as_uint(x);
#elif defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  exactvq_u32 b;
  __builtin_memcpy(&b, &x, sizeof b);
  return b;
#endif
}

EXACTVQ_FN float exactvq_f32_of_bits(exactvq_u32 b) {
#if defined(__OPENCL_VERSION__)
  return as_float(b);
#elif defined(__CUDA_ARCH__)
  return __uint_as_float(b);
#else
  float x;
  __builtin_memcpy(&x, &b, sizeof x);
  return x;
#endif
}

#if !defined(__OPENCL_VERSION__)
EXACTVQ_FN exactvq_u64 exactvq_f64_bits(double x) {
#if defined(__CUDA_ARCH__)
  return (exactvq_u64)__double_as_longlong(x);
#else
  exactvq_u64 b;
  __builtin_memcpy(&b, &x, sizeof b);
  return b;
#endif
}

EXACTVQ_FN double exactvq_f64_of_bits(exactvq_u64 b) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double((long long)b);
#else
  double x;
  __builtin_memcpy(&x, &b, sizeof x);
  return x;
#endif
}
#endif

#endif /* EXACTVQ_CORE_PORTABLE_BITS_H */
