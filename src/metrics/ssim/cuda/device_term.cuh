// The term of definition.h on the device, one rounded operation at a time
// (explicit _rn intrinsics, which nvcc never fuses, on top of -fmad=false), and
// a twin of its 2^-64 fixed point on the fp64 pipe. Tested bit for bit against
// the CPU reference.
#pragma once

#include <cstdint>
#include <cstring>

#include "metrics/ssim/definition.h"
#include "metrics/ssim/softfp_term.h"
#include "metrics/ssim/term.h"

namespace exactvq::ssim::cuda {

// The two window-independent products of c1 and c2: (Md * Md) * K1, (Md * Md) * K2.
struct TermConstants {
  double mm_k1;
  double mm_k2;
};

// The constants at a bit depth, formed on the host by the CPU's definition,
// for the native kernels and (their bit patterns) for the emulated ones.
inline TermConstants term_constants(int bitdepth) {
  const ssim::TermConstants k = ssim::term_constants(bitdepth);
  return {k.mm_k1, k.mm_k2};
}
inline softfp_term_constants emulated_term_constants(int bitdepth) {
  const ssim::TermConstants k = ssim::term_constants(bitdepth);
  uint64_t k1, k2;
  std::memcpy(&k1, &k.mm_k1, sizeof k1);
  std::memcpy(&k2, &k.mm_k2, sizeof k2);
  return softfp_term_constants_from_bits(k1, k2);
}

// v < 2^52 converted exactly, on the fp64 pipe: the bits of 2^52 + v, minus 2^52
// (both exact; the conversion instruction would take the slower XU pipe).
__device__ __forceinline__ double exact_to_double(uint64_t v) {
  return __dsub_rn(__longlong_as_double(static_cast<long long>(0x4330000000000000ull | v)), 0x1p52);
}

__device__ __forceinline__ double ssim_term(uint64_t mux_i, uint64_t muy_i, uint64_t x2_i,
                                            uint64_t xy_i, uint64_t y2_i, uint32_t w,
                                            TermConstants k) {
  // Conversions are exact: every value is below 2^52 (mux, muy < 2^32, x2, xy,
  // y2 < 2^48, w <= 2^16).
  const double wd = exact_to_double(w);
  double c1, c2, term;
  EXACTVQ_SSIM_WINDOW_CONSTANTS(__dmul_rn, k.mm_k1, k.mm_k2, wd, c1, c2);
  const double mux = exact_to_double(mux_i);
  const double muy = exact_to_double(muy_i);
  EXACTVQ_SSIM_TERM(double, __dmul_rn, __dadd_rn, __dsub_rn, __ddiv_rn, 2.0, wd, c1, c2, mux, muy,
                    exact_to_double(x2_i), exact_to_double(xy_i), exact_to_double(y2_i), term);
  return term;
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

// round_half_even(term * 2^64) (definition.h's ssim_fixed64_of), mostly on the
// fp64 pipe (for the native kernel): with a = |term|, h = floor(a) and f = a - h (exact: h = 0, or
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

}  // namespace exactvq::ssim::cuda
