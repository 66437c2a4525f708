// Bit-level helpers shared by the pinned functions: reinterpretation between
// binary64/binary32 and their integer images, sign operations on the bits, and
// the fused multiply-add the FMA builds of glibc evaluate (one rounding:
// std::fma on the host, exact on every target that implements IEEE 754-2008 in
// hardware or in software; __fma_rn on a CUDA device). Host and device alike
// (portable.h).
#pragma once

#include <cstdint>

#include "core/portable_bits.h"
#include "libm/portable.h"

#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

namespace exactvq::libm::detail {

EXACTVQ_LIBM_FN uint64_t bits_of(double x) { return exactvq_f64_bits(x); }
EXACTVQ_LIBM_FN double double_of(uint64_t b) { return exactvq_f64_of_bits(b); }
EXACTVQ_LIBM_FN uint32_t bits_of(float x) { return exactvq_f32_bits(x); }
EXACTVQ_LIBM_FN float float_of(uint32_t b) { return exactvq_f32_of_bits(b); }

// a * b + c rounded once, as glibc's FMA variant evaluates it.
EXACTVQ_LIBM_FN double fused(double a, double b, double c) {
  return EXACTVQ_LIBM_SIDE(std::fma(a, b, c), __fma_rn(a, b, c));
}

inline constexpr uint64_t kSignBit = uint64_t{1} << 63;
inline constexpr uint64_t kInfinityBits = 0x7ff0000000000000u;

// |x|, and |x| with y's sign: on the bits, as fabs and copysign are.
EXACTVQ_LIBM_FN double abs_of(double x) { return double_of(bits_of(x) & ~kSignBit); }
EXACTVQ_LIBM_FN double with_sign_of(double x, double y) {
  return double_of((bits_of(x) & ~kSignBit) | (bits_of(y) & kSignBit));
}
EXACTVQ_LIBM_FN bool is_nan(double x) { return (bits_of(x) & ~kSignBit) > kInfinityBits; }
EXACTVQ_LIBM_FN bool is_nan(float x) { return (bits_of(x) & 0x7fffffffu) > 0x7f800000u; }

// Top 12 bits (sign and exponent) of a double.
EXACTVQ_LIBM_FN uint32_t top12(double x) { return static_cast<uint32_t>(bits_of(x) >> 52); }

// x + y where x or y is NaN, as x86's SSE addition gives it: the first NaN
// operand, quieted. Written with integers because a compiler may swap the
// operands of an addition, which changes which NaN comes out.
EXACTVQ_LIBM_FN double nan_sum(double x, double y) {
  const uint64_t quiet = 0x0008000000000000u;
  return double_of((is_nan(x) ? bits_of(x) : bits_of(y)) | quiet);
}
EXACTVQ_LIBM_FN float nan_sum(float x, float y) {
  const uint32_t quiet = 0x00400000u;
  return float_of((is_nan(x) ? bits_of(x) : bits_of(y)) | quiet);
}

// The results glibc's error helpers return (math_err.c), as x86 computes them.
// An invalid operation's NaN is written on the bits: x86 gives x quieted where
// x is a NaN, else its default NaN (sign set), and a GPU would give its own
// canonical NaN instead. (x - x) / (x - x), x / x and the like.
EXACTVQ_LIBM_FN double invalid_result(double x) {
  return is_nan(x) ? nan_sum(x, x) : double_of(0xfff8000000000000u);
}
EXACTVQ_LIBM_FN float invalid_result(float x) {
  return is_nan(x) ? nan_sum(x, x) : float_of(0xffc00000u);
}
EXACTVQ_LIBM_FN double divide_by_zero(bool negative) {
  return (negative ? -1.0 : 1.0) / double_of(0);
}
EXACTVQ_LIBM_FN double overflow_result(bool negative) {
  const double big = 0x1p769;
  return (negative ? -big : big) * big;
}
EXACTVQ_LIBM_FN double underflow_result(bool negative) {
  const double tiny = 0x1p-767;
  return (negative ? -tiny : tiny) * tiny;
}

}  // namespace exactvq::libm::detail
