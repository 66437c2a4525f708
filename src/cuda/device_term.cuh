// Device twins of ssim/term.h and ssim/fixed_point.h's to_fixed64: the binary64
// term of spec/ssim.md one rounded operation at a time (explicit _rn intrinsics,
// which nvcc never fuses, on top of -fmad=false), and its 2^-64 fixed point as
// two 64-bit words. Tested bit for bit against the CPU reference.
#pragma once

#include <cstdint>

namespace exactvq::cuda {

// The two window-independent products of c1 and c2: (Md * Md) * K1, (Md * Md) * K2.
struct TermConstants {
  double mm_k1;
  double mm_k2;
};

// v < 2^52 converted exactly, on the fp64 pipe: the bits of 2^52 + v, minus 2^52
// (both exact; the conversion instruction would take the slower XU pipe).
__device__ __forceinline__ double exact_to_double(uint64_t v) {
  return __dsub_rn(__longlong_as_double(static_cast<long long>(0x4330000000000000ull | v)), 0x1p52);
}

__device__ __forceinline__ double ssim_term(uint64_t mux_i, uint64_t muy_i, uint64_t x2_i,
                                            uint64_t xy_i, uint64_t y2_i, uint32_t w,
                                            TermConstants k) {
  // Conversions are exact: every value is below 2^52 (spec/ssim.md's bounds:
  // mux, muy < 2^32, x2, xy, y2 < 2^48, w <= 2^16).
  const double wd = exact_to_double(w);
  const double c1 = __dmul_rn(__dmul_rn(k.mm_k1, wd), wd);
  const double c2 = __dmul_rn(__dmul_rn(k.mm_k2, wd), wd);
  const double mux = exact_to_double(mux_i);
  const double muy = exact_to_double(muy_i);
  const double mx2 = __dmul_rn(mux, mux);
  const double mxy = __dmul_rn(mux, muy);
  const double my2 = __dmul_rn(muy, muy);
  const double a = __dadd_rn(__dmul_rn(2.0, mxy), c1);
  const double b = __dadd_rn(c2, __dmul_rn(2.0, __dsub_rn(__dmul_rn(exact_to_double(xy_i), wd), mxy)));
  const double c = __dadd_rn(__dadd_rn(mx2, my2), c1);
  const double d = __dadd_rn(
      __dsub_rn(__dadd_rn(__dsub_rn(__dmul_rn(exact_to_double(x2_i), wd), mx2),
                          __dmul_rn(exact_to_double(y2_i), wd)),
                my2),
      c2);
  return __ddiv_rn(__dmul_rn(__dmul_rn(wd, a), b), __dmul_rn(c, d));
}

// A signed 128-bit integer as two words: value = hi * 2^64 + lo (hi signed).
struct Int128Words {
  uint64_t lo = 0;
  uint64_t hi = 0;

  __device__ __forceinline__ void add(uint64_t olo, uint64_t ohi) {
    const uint64_t sum = lo + olo;
    hi += ohi + (sum < lo ? 1u : 0u);
    lo = sum;
  }
};

// round_half_even(term * 2^64), from the sign, significand and exponent. The
// term is finite and |term| <= 2^17 (w <= 2^16, |ssim| <= 1), so the shift left
// stays below 64 + 17 - 52 and the result within 82 bits.
__device__ __forceinline__ Int128Words to_fixed64(double term) {
  const uint64_t bits = static_cast<uint64_t>(__double_as_longlong(term));
  const bool negative = (bits >> 63) != 0;
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
  const uint64_t significand = biased ? (fraction | (uint64_t{1} << 52)) : fraction;
  const int shift = (biased ? biased : 1) - 1075 + 64;  // q = significand * 2^shift
  Int128Words q;
  if (shift >= 0) {  // the common case: |term| >= 2^-12, an exact shift
    if (shift < 64) {
      q.lo = significand << shift;
      q.hi = (significand >> 1) >> (63 - shift);  // significand >> (64 - shift), 0 at 0
    } else {
      q.hi = significand << (shift - 64);
    }
  } else if (shift >= -54) {
    const int r = -shift;
    uint64_t m = significand >> r;
    const uint64_t rest = significand & ((uint64_t{1} << r) - 1);
    const uint64_t half = uint64_t{1} << (r - 1);
    if (rest > half || (rest == half && (m & 1))) ++m;
    q.lo = m;
  }  // else: below 2^-55 in magnitude, rounds to zero
  if (negative) {  // two's complement of the 128-bit magnitude
    q.lo = ~q.lo + 1;
    q.hi = ~q.hi + (q.lo == 0 ? 1u : 0u);
  }
  return q;
}

// The same value as to_fixed64, mostly on the fp64 pipe (for the native
// kernel): with a = |term|, h = floor(a) and f = a - h (exact: h = 0, or
// h >= a / 2 and Sterbenz), a * 2^64 = h * 2^64 + f * 2^64 where f * 2^64 is
// exact and below 2^64, so round_half_even(a * 2^64) is h in the high word and
// round_half_even(f * 2^64) (one conversion, round to nearest even) in the low
// word; h <= 2^17 is read from the low bits of h + 1.5 * 2^52 (exact). A negative
// term negates the 128 bits (rounding to nearest even is symmetric).
__device__ __forceinline__ Int128Words to_fixed64_fp64(double term) {
  const double a = fabs(term);
  const double h = floor(a);
  const double f = __dsub_rn(a, h);
  const uint64_t lo = __double2ull_rn(__dmul_rn(f, 0x1p64));
  const uint64_t hi = static_cast<uint32_t>(__double2loint(__dadd_rn(h, 0x1.8p52)));
  Int128Words q;
  if (__double2hiint(term) < 0) {
    q.lo = ~lo + 1;
    q.hi = ~hi + (lo == 0 ? 1u : 0u);
  } else {
    q.lo = lo;
    q.hi = hi;
  }
  return q;
}

}  // namespace exactvq::cuda
