// The `exact` frame sum: each term rounded to a signed 2^-64 fixed point, added
// as integers (so any order, split or machine gives the same bits).
#pragma once

#include <cstdint>

namespace exactvq::ssim {

using int128 = __int128;
using uint128 = unsigned __int128;

// round_half_even(term * 2^64) for a finite term with |term| < 2^62.
int128 to_fixed64(double term);

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
