// glibc 2.36's log10 (e_log10.c, fdlibm's method; glibc builds it once, with
// no FMA variant): x = 2^n m with m in [1, 2) (or [1/2, 1) when n would be
// negative, so that n log10(2) and log10(m) never cancel), then
// log10(x) = n log10(2)_lo + log(m)/ln 10 + n log10(2)_hi, each product and
// sum rounded on its own; log is glibc's log (libm::log, its FMA variant).
#include <cmath>
#include <cstdint>

#include "libm/fp_bits.h"
#include "libm/libm.h"

namespace exactvq::libm {

namespace {

using namespace detail;

constexpr double kTwo54 = 0x1p54;
constexpr double kInvLn10 = 0x1.bcb7b1526e50ep-2;      // 1/ln 10
constexpr double kLog10Of2Hi = 0x1.34413509f6p-2;      // log10(2), 36 bits: n times it is exact
constexpr double kLog10Of2Lo = 0x1.9fef311f12b36p-42;  // the rest of log10(2)

}  // namespace

double log10(double x) {
  // glibc's SVID-compatible wrapper (log10 has only the GLIBC_2.2.5 version)
  // answers x < 0 itself, with the constant NaN (positive, quiet), and x = 0
  // with -inf, the same as below.
  if (x < 0.0) return double_of(0x7ff8000000000000u);
  uint64_t ix = bits_of(x);
  int k = 0;
  if (static_cast<int64_t>(ix) < 0x0010000000000000) {
    // Negative, zero or subnormal.
    if ((ix & 0x7fffffffffffffffu) == 0) return -kTwo54 / std::fabs(x);  // -inf
    if (static_cast<int64_t>(ix) < 0) return invalid_result(x);          // -NaN
    k = -54;
    x = x * kTwo54;
    ix = bits_of(x);
  }
  if (ix > 0x7fefffffffffffffu) return x + x;  // +inf or NaN
  k += static_cast<int>(static_cast<int64_t>(ix) >> 52) - 1023;
  const int negative = k < 0 ? 1 : 0;
  const double n = static_cast<double>(k + negative);
  ix = (ix & 0x000fffffffffffffu) | (static_cast<uint64_t>(0x3ff - negative) << 52);
  const double m = double_of(ix);
  const double n_lo = n * kLog10Of2Lo;
  const double log_m = libm::log(m);
  const double n_hi = n * kLog10Of2Hi;
  double z = log_m * kInvLn10;
  z = z + n_lo;
  return z + n_hi;
}

}  // namespace exactvq::libm
