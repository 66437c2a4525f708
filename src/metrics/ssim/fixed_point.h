// The `exact` frame sum: each term rounded to a signed 2^-64 fixed point, added
// as integers (so any order, split or machine gives the same bits).
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "metrics/ssim/definition.h"

namespace exactvq::ssim {

__extension__ typedef __int128 int128;  // GCC and Clang; the exact sum needs 128 bits
__extension__ typedef unsigned __int128 uint128;

// round_half_even(term * 2^64) for a finite term with |term| < 2^62:
// definition.h's ssim_fixed64_of on the term's sign, significand and exponent.
inline int128 to_fixed64(double term) {
  uint64_t bits;
  std::memcpy(&bits, &term, sizeof bits);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  if (biased == 0x7ff) throw std::domain_error("to_fixed64: term is not finite");
  if (biased - 1075 + 64 > 126 - 53) throw std::domain_error("to_fixed64: |term| >= 2^62");
  const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
  const uint64_t significand = biased ? (fraction | (uint64_t{1} << 52)) : fraction;
  const exactvq_i128 q =
      ssim_fixed64_of(significand, (biased ? biased : 1) - 1075, static_cast<int32_t>(bits >> 63));
  return static_cast<int128>((static_cast<uint128>(q.hi) << 64) | q.lo);
}

// The integer converted to binary64 with round to nearest, ties to even.
double int128_to_double(int128 v);

// A partial `exact` sum over some pixels: sum of fixed-point terms and of weights.
struct ExactSum {
  int128 sum_q = 0;
  uint64_t sum_w = 0;

  void add(double term, uint64_t w) {
    sum_q += to_fixed64(term);
    sum_w += w;
  }
  ExactSum& operator+=(const ExactSum& o) {
    sum_q += o.sum_q;
    sum_w += o.sum_w;
    return *this;
  }
  bool operator==(const ExactSum&) const = default;

  // ((double)S * 2^-64) / (double)Wsum.
  double score() const;
};

}  // namespace exactvq::ssim
