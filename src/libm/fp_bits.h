// Bit-level helpers shared by the pinned functions: reinterpretation between
// binary64/binary32 and their integer images, and the fused multiply-add the
// FMA builds of glibc evaluate (one rounding; std::fma is exact on every
// target that implements IEEE 754-2008, in hardware or in software).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace exactvq::libm::detail {

inline uint64_t bits_of(double x) { return std::bit_cast<uint64_t>(x); }
inline double double_of(uint64_t b) { return std::bit_cast<double>(b); }
inline uint32_t bits_of(float x) { return std::bit_cast<uint32_t>(x); }
inline float float_of(uint32_t b) { return std::bit_cast<float>(b); }

// a * b + c rounded once, as glibc's FMA variant evaluates it.
inline double fused(double a, double b, double c) { return std::fma(a, b, c); }

// x + y where x or y is NaN, as x86's SSE addition gives it: the first NaN
// operand, quieted. Written with integers because a compiler may swap the
// operands of an addition, which changes which NaN comes out.
inline double nan_sum(double x, double y) {
  const uint64_t quiet = 0x0008000000000000u;
  return double_of((std::isnan(x) ? bits_of(x) : bits_of(y)) | quiet);
}
inline float nan_sum(float x, float y) {
  const uint32_t quiet = 0x00400000u;
  return float_of((std::isnan(x) ? bits_of(x) : bits_of(y)) | quiet);
}

// The results glibc's error helpers return (math_err.c): they are computed,
// not constants, so that NaN payloads and signs follow the same operations.
inline double invalid_result(double x) { return (x - x) / (x - x); }
inline double divide_by_zero(bool negative) { return (negative ? -1.0 : 1.0) / 0.0; }
inline double overflow_result(bool negative) {
  const double big = 0x1p769;
  return (negative ? -big : big) * big;
}
inline double underflow_result(bool negative) {
  const double tiny = 0x1p-767;
  return (negative ? -tiny : tiny) * tiny;
}

}  // namespace exactvq::libm::detail
