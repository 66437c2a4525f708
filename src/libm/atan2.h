// glibc 2.36's atan2 (IBM Accurate Mathematical Library, e_atan2.c without
// its former multi-precision stages, FMA variant), pinned. With u the
// smaller of |x|, |y| over the larger (and du its remainder): below 1/16 an
// odd polynomial; above, the Taylor expansion about the nearest of 241
// nodes (atan2_table.h); then the quadrant's pi/2 or pi added or
// subtracted, y's sign last. The fusions are those of the FMA build's
// machine code (docs/spec/libm.md). Host and device alike (portable.h); libm::atan2
// is this function.
#pragma once

#include <cstdint>

#include "libm/atan2_table.h"
#include "libm/fp_bits.h"
#include "libm/portable.h"

namespace exactvq::libm::detail {

inline constexpr double kAtanPi = 0x1.921fb54442d18p+1;
inline constexpr double kAtanPiLo = 0x1.1a62633145c07p-53;  // pi less kAtanPi
inline constexpr double kAtanHalfPi = 0x1.921fb54442d18p+0;
inline constexpr double kAtanHalfPiLo = 0x1.1a62633145c07p-54;
inline constexpr double kAtanQuarterPi = 0x1.921fb54442d18p-1;
inline constexpr double kAtanThreeQuarterPi = 0x1.2d97c7f3321d2p+1;
inline constexpr double kAtanTwo500 = 0x1p500;
inline constexpr double kAtanTwoM500 = 0x1p-500;

// atan(u) - u ~ u^3 (D3 + D5 u^2 + ... + D13 u^10) for u < 1/16.
inline constexpr double kAtanD3 = -0x1.5555555555555p-2;
inline constexpr double kAtanD5 = 0x1.99999999997fdp-3;
inline constexpr double kAtanD7 = -0x1.24924923f7603p-3;
inline constexpr double kAtanD9 = 0x1.c71c6e5129a3bp-4;
inline constexpr double kAtanD11 = -0x1.7458022b13c25p-4;
inline constexpr double kAtanD13 = 0x1.375f08b31cbcep-4;

// u^3 (D3 + ... + D13 u^10), evaluated as the FMA build does.
EXACTVQ_LIBM_FN double atan_small_u_series(double u, double v) {
  double p = fused(v, kAtanD13, kAtanD11);
  p = fused(v, p, kAtanD9);
  p = fused(v, p, kAtanD7);
  p = fused(v, p, kAtanD5);
  p = fused(v, p, kAtanD3);
  const double uv = u * v;
  return uv * p;
}

// The node for u in [1/16, 1]: the nearest multiple of 1/256, counted from 1/16.
EXACTVQ_LIBM_FN const AtanNode& atan_node_for(double u) {
  const double scaled = fused(u, 256.0, 0x1p52) - 0x1p52;
  return atan_nodes()[static_cast<int>(scaled) - 16];
}

// c2 + v (c3 + v (c4 + v (c5 + v c6))), all fused.
EXACTVQ_LIBM_FN double atan_node_series(const AtanNode& n, double v) {
  double p = fused(v, n.d5, n.d4);
  p = fused(v, p, n.d3);
  p = fused(v, p, n.d2);
  return fused(v, p, n.d1);
}

// hi + lo = a + b exactly (glibc's EADD) and a - b (ESUB).
EXACTVQ_LIBM_FN double sum_with_error(double a, double b, double* lo) {
  const double hi = a + b;
  *lo = abs_of(a) > abs_of(b) ? (a - hi) + b : (b - hi) + a;
  return hi;
}
EXACTVQ_LIBM_FN double difference_with_error(double a, double b, double* lo) {
  const double hi = a - b;
  *lo = abs_of(a) > abs_of(b) ? (a - hi) - b : a - (b + hi);
  return hi;
}

}  // namespace exactvq::libm::detail

namespace exactvq::libm::portable {

EXACTVQ_LIBM_FN double atan2(double y, double x) {
  using namespace detail;
  const uint64_t bx = bits_of(x);
  const uint64_t by = bits_of(y);
  const uint32_t ux = static_cast<uint32_t>(bx >> 32), dx = static_cast<uint32_t>(bx);
  const uint32_t uy = static_cast<uint32_t>(by >> 32), dy = static_cast<uint32_t>(by);
  // NaN operands: x86's addition returns the first NaN operand, quieted.
  if ((ux & 0x7ff00000u) == 0x7ff00000u && ((ux & 0x000fffffu) | dx) != 0) return nan_sum(x, y);
  if ((uy & 0x7ff00000u) == 0x7ff00000u && ((uy & 0x000fffffu) | dy) != 0) return nan_sum(y, y);
  const bool x_negative = (ux & 0x80000000u) != 0;
  const bool y_negative = (uy & 0x80000000u) != 0;
  // y = +-0.
  if ((uy & 0x7fffffffu) == 0 && dy == 0) {
    if (!y_negative) return x_negative ? kAtanPi : 0.0;
    return x_negative ? -kAtanPi : -0.0;
  }
  // x = +-0.
  if (x == 0) return y_negative ? -kAtanHalfPi : kAtanHalfPi;
  // x = +-inf.
  if ((ux & 0x7fffffffu) == 0x7ff00000u && dx == 0) {
    const bool y_inf = (uy & 0x7fffffffu) == 0x7ff00000u && dy == 0;
    if (!x_negative) {
      if (y_inf) return y_negative ? -kAtanQuarterPi : kAtanQuarterPi;
      return y_negative ? -0.0 : 0.0;
    }
    if (y_inf) return y_negative ? -kAtanThreeQuarterPi : kAtanThreeQuarterPi;
    return y_negative ? -kAtanPi : kAtanPi;
  }
  // y = +-inf.
  if ((uy & 0x7fffffffu) == 0x7ff00000u && dy == 0) return y_negative ? -kAtanHalfPi : kAtanHalfPi;

  double ax = x < 0 ? -x : x;
  double ay = y < 0 ? -y : y;
  // One ratio is so small that atan of it is the ratio (or pi/2, pi less it).
  const int de = static_cast<int>(uy & 0x7ff00000u) - static_cast<int>(ux & 0x7ff00000u);
  if (de >= 57 * 0x100000) return y > 0 ? kAtanHalfPi : -kAtanHalfPi;
  if (de <= -57 * 0x100000) {
    if (x > 0) return with_sign_of(ay / ax, y);
    return y > 0 ? kAtanPi : -kAtanPi;
  }
  if (ax < kAtanTwoM500 || ay < kAtanTwoM500) {
    ax = ax * kAtanTwo500;
    ay = ay * kAtanTwo500;
  }
  if (ax > kAtanTwo500 || ay > kAtanTwo500) {
    ax = ax * kAtanTwoM500;
    ay = ay * kAtanTwoM500;
  }
  // u + du = the smaller over the larger, du from the exact product's error.
  const bool y_smaller = ay < ax;
  const double num = y_smaller ? ay : ax;
  const double den = y_smaller ? ax : ay;
  const double u = num / den;
  const double prod = den * u;
  const double prod_err = fused(den, u, -prod);
  const double du = ((num - prod) - prod_err) / den;

  double z;
  if (x > 0) {
    if (y_smaller) {
      // atan(u).
      if (u < 0x1p-4) {
        const double v = u * u;
        double p = fused(v, kAtanD13, kAtanD11);
        p = fused(v, p, kAtanD9);
        p = fused(v, p, kAtanD7);
        p = fused(v, p, kAtanD5);
        p = fused(v, p, kAtanD3);
        z = u + fused(u * v, p, du);
      } else {
        const AtanNode& n = atan_node_for(u);
        double dv;
        const double v = sum_with_error(u - n.c, du, &dv);
        double q = fused(v, n.d5, n.d4);
        q = fused(v, q, n.d3);
        q = fused(v, q, n.d2);
        double zz = (v * v) * q;
        zz = fused(dv, n.d1, zz);
        zz = fused(v, n.d1, zz);
        z = zz + n.atan_c;
      }
    } else if (u < 0x1p-4) {
      // pi/2 - atan(u).
      const double zz = atan_small_u_series(u, u * u);
      double cor;
      const double t2 = difference_with_error(kAtanHalfPi, u, &cor);
      const double t3 = ((kAtanHalfPiLo + cor) - du) - zz;
      z = t2 + t3;
    } else {
      const AtanNode& n = atan_node_for(u);
      const double v = (u - n.c) + du;
      const double zz = fused(-v, atan_node_series(n, v), kAtanHalfPiLo);
      z = (kAtanHalfPi - n.atan_c) + zz;
    }
  } else if (!y_smaller && ax < ay) {
    // pi/2 + atan(u).
    if (u < 0x1p-4) {
      const double zz = atan_small_u_series(u, u * u);
      double cor;
      const double t2 = sum_with_error(kAtanHalfPi, u, &cor);
      const double t3 = ((kAtanHalfPiLo + cor) + du) + zz;
      z = t2 + t3;
    } else {
      const AtanNode& n = atan_node_for(u);
      const double v = (u - n.c) + du;
      const double zz = fused(v, atan_node_series(n, v), kAtanHalfPiLo);
      z = (kAtanHalfPi + n.atan_c) + zz;
    }
  } else {
    // pi - atan(u).
    if (u < 0x1p-4) {
      const double zz = atan_small_u_series(u, u * u);
      double cor;
      const double t2 = difference_with_error(kAtanPi, u, &cor);
      const double t3 = ((kAtanPiLo + cor) - du) - zz;
      z = t2 + t3;
    } else {
      const AtanNode& n = atan_node_for(u);
      const double v = (u - n.c) + du;
      const double zz = fused(-v, atan_node_series(n, v), kAtanPiLo);
      z = (kAtanPi - n.atan_c) + zz;
    }
  }
  return with_sign_of(z, y);
}

}  // namespace exactvq::libm::portable
