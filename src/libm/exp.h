// glibc 2.36's exp (Arm optimized-routines, FMA variant), pinned: see
// exp_core.h for the method; the fusions are those of the FMA build's machine
// code (docs/spec/libm.md). Host and device alike (portable.h); libm::exp is
// this function.
#pragma once

#include <cstdint>

#include "libm/exp_core.h"
#include "libm/fp_bits.h"
#include "libm/portable.h"

namespace exactvq::libm::portable {

EXACTVQ_LIBM_FN double exp(double x) {
  using namespace detail;
  uint32_t abstop = top12(x) & 0x7ffu;
  bool out_of_range = false;
  if (abstop - top12(0x1p-54) >= top12(512.0) - top12(0x1p-54)) {
    if (abstop < top12(0x1p-54)) return 1.0 + x;  // |x| < 2^-54, zero included
    if (abstop >= top12(1024.0)) {
      if (bits_of(x) == (kSignBit | kInfinityBits)) return 0.0;
      if (abstop >= 0x7ffu) return is_nan(x) ? nan_sum(x, x) : x;  // 1 + x: +inf or NaN
      return bits_of(x) >> 63 ? underflow_result(false) : overflow_result(false);
    }
    out_of_range = true;  // 512 <= |x| < 1024: the result may leave the range
  }
  // x = k ln2/128 + r, |r| <= ln2/256; k's bits sit in kd's low mantissa.
  double kd = fused(x, kExpInvLn2N, kExpShift);
  const uint64_t ki = bits_of(kd);
  kd = kd - kExpShift;
  double r = fused(kd, kExpNegLn2HiN, x);
  r = fused(kd, kExpNegLn2LoN, r);
  return exp_of_reduced(r, ki, 0, out_of_range);
}

}  // namespace exactvq::libm::portable
