#include "ssim/fixed_point.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace exactvq::ssim {

namespace {

int bit_length(uint128 v) {
  const uint64_t hi = static_cast<uint64_t>(v >> 64);
  if (hi) return 128 - std::countl_zero(hi);
  return 64 - std::countl_zero(static_cast<uint64_t>(v));
}

}  // namespace

int128 to_fixed64(double term) {
  uint64_t bits;
  std::memcpy(&bits, &term, sizeof bits);
  const bool negative = (bits >> 63) != 0;
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
  if (biased == 0x7ff) throw std::domain_error("to_fixed64: term is not finite");
  // term = significand * 2^exponent, significand < 2^53.
  const uint64_t significand = biased ? (fraction | (uint64_t{1} << 52)) : fraction;
  const int exponent = (biased ? biased : 1) - 1075;
  const int shift = exponent + 64;  // q = significand * 2^shift
  uint128 q;
  if (shift >= 0) {
    if (shift > 126 - 53) throw std::domain_error("to_fixed64: |term| >= 2^62");
    q = uint128{significand} << shift;
  } else {
    const int r = -shift;
    if (r > 54) {
      q = 0;  // significand * 2^-r < 2^53 * 2^-55 < 1/2: rounds to zero
    } else {
      q = significand >> r;
      const uint64_t rest = significand & ((uint64_t{1} << r) - 1);
      const uint64_t half = uint64_t{1} << (r - 1);
      if (rest > half || (rest == half && (q & 1))) ++q;
    }
  }
  return negative ? -static_cast<int128>(q) : static_cast<int128>(q);
}

double int128_to_double(int128 v) {
  const bool negative = v < 0;
  uint128 u = negative ? uint128(0) - static_cast<uint128>(v) : static_cast<uint128>(v);
  const int n = bit_length(u);
  int scale = 0;
  if (n > 53) {
    const int shift = n - 53;
    uint128 m = u >> shift;
    const uint128 rest = u & ((uint128{1} << shift) - 1);
    const uint128 half = uint128{1} << (shift - 1);
    if (rest > half || (rest == half && (m & 1))) ++m;
    u = m;  // may reach 2^53, still exact as a double
    scale = shift;
  }
  const double mag = std::ldexp(static_cast<double>(static_cast<uint64_t>(u)), scale);
  return negative ? -mag : mag;
}

double ExactSum::score() const {
  return (int128_to_double(sum_q) * 0x1p-64) / static_cast<double>(sum_w);
}

}  // namespace exactvq::ssim
