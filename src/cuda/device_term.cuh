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

__device__ __forceinline__ double ssim_term(uint64_t mux_i, uint64_t muy_i, uint64_t x2_i,
                                            uint64_t xy_i, uint64_t y2_i, uint32_t w,
                                            TermConstants k) {
  // Conversions are exact: every value is below 2^53.
  const double wd = __ull2double_rn(w);
  const double c1 = __dmul_rn(__dmul_rn(k.mm_k1, wd), wd);
  const double c2 = __dmul_rn(__dmul_rn(k.mm_k2, wd), wd);
  const double mux = __ull2double_rn(mux_i);
  const double muy = __ull2double_rn(muy_i);
  const double mx2 = __dmul_rn(mux, mux);
  const double mxy = __dmul_rn(mux, muy);
  const double my2 = __dmul_rn(muy, muy);
  const double a = __dadd_rn(__dmul_rn(2.0, mxy), c1);
  const double b = __dadd_rn(c2, __dmul_rn(2.0, __dsub_rn(__dmul_rn(__ull2double_rn(xy_i), wd), mxy)));
  const double c = __dadd_rn(__dadd_rn(mx2, my2), c1);
  const double d = __dadd_rn(
      __dsub_rn(__dadd_rn(__dsub_rn(__dmul_rn(__ull2double_rn(x2_i), wd), mx2),
                          __dmul_rn(__ull2double_rn(y2_i), wd)),
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
  if (shift >= 64) {
    q.hi = significand << (shift - 64);
  } else if (shift > 0) {
    q.lo = significand << shift;
    q.hi = significand >> (64 - shift);
  } else if (shift == 0) {
    q.lo = significand;
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

}  // namespace exactvq::cuda
