#include "metrics/ssim/fixed_point.h"

#include <bit>
#include <cmath>

namespace exactvq::ssim {

namespace {

int bit_length(uint128 v) {
  const uint64_t hi = static_cast<uint64_t>(v >> 64);
  if (hi) return 128 - std::countl_zero(hi);
  return 64 - std::countl_zero(static_cast<uint64_t>(v));
}

}  // namespace

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
