// glibc 2.36's powf (Arm optimized-routines, FMA variant), pinned, for every
// x and y: log2(x) in binary64 from a 16-entry table and a degree-5
// polynomial, times y, then 2^(y log2 x) from a 32-entry table and a cubic,
// rounded once to float. The fusions are those of the FMA build's machine
// code (docs/spec/libm.md); metrics/adm/one_third_power is the same algorithm
// for y = 1/3, where fused and unfused evaluation happen to agree. Host and
// device alike (portable.h); libm::powf is this function.
#pragma once

#include <cstdint>

#include "libm/fp_bits.h"
#include "libm/portable.h"

namespace exactvq::libm::detail {

// For each of 16 subintervals of [0x1.66p-1, 0x1.66p0): 1/c and log2(c) for a
// c near its centre.
struct PowfLog2Entry {
  double inv_c, log2_c;
};
EXACTVQ_LIBM_TABLE(PowfLog2Entry, powf_log2_table,
                   {
                       {0x1.661ec79f8f3bep+0, -0x1.efec65b963019p-2},
                       {0x1.571ed4aaf883dp+0, -0x1.b0b6832d4fca4p-2},
                       {0x1.49539f0f010bp+0, -0x1.7418b0a1fb77bp-2},
                       {0x1.3c995b0b80385p+0, -0x1.39de91a6dcf7bp-2},
                       {0x1.30d190c8864a5p+0, -0x1.01d9bf3f2b631p-2},
                       {0x1.25e227b0b8eap+0, -0x1.97c1d1b3b7afp-3},
                       {0x1.1bb4a4a1a343fp+0, -0x1.2f9e393af3c9fp-3},
                       {0x1.12358f08ae5bap+0, -0x1.960cbbf788d5cp-4},
                       {0x1.0953f419900a7p+0, -0x1.a6f9db6475fcep-5},
                       {0x1p+0, 0x0p+0},
                       {0x1.e608cfd9a47acp-1, 0x1.338ca9f24f53dp-4},
                       {0x1.ca4b31f026aap-1, 0x1.476a9543891bap-3},
                       {0x1.b2036576afce6p-1, 0x1.e840b4ac4e4d2p-3},
                       {0x1.9c2d163a1aa2dp-1, 0x1.40645f0c6651cp-2},
                       {0x1.886e6037841edp-1, 0x1.88e9c2c1b9ff8p-2},
                       {0x1.767dcf5534862p-1, 0x1.ce0a44eb17bccp-2},
                   })
// log2(1 + r) ~ A0 r^5 + A1 r^4 + A2 r^3 + A3 r^2 + A4 r.
inline constexpr double kPowfLog2A0 = 0x1.27616c9496e0bp-2;
inline constexpr double kPowfLog2A1 = -0x1.71969a075c67ap-2;
inline constexpr double kPowfLog2A2 = 0x1.ec70a6ca7baddp-2;
inline constexpr double kPowfLog2A3 = -0x1.7154748bef6c8p-1;
inline constexpr double kPowfLog2A4 = 0x1.71547652ab82bp+0;

// Bits of 2^(j/32) less j << 47, so adding k << 47 scales by 2^(k div 32).
EXACTVQ_LIBM_TABLE(
    uint64_t, powf_exp2_table,
    {
        0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
        0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
        0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
        0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
        0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
        0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
        0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
        0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
    })
// Adding it rounds to a multiple of 1/32, left in the low bits.
inline constexpr double kPowfExp2Shift = 0x1.8p+47;
// 2^r ~ C0 r^3 + C1 r^2 + C2 r + 1 for |r| <= 1/64.
inline constexpr double kPowfExp2C0 = 0x1.c6af84b912394p-5;
inline constexpr double kPowfExp2C1 = 0x1.ebfce50fac4f3p-3;
inline constexpr double kPowfExp2C2 = 0x1.62e42ff0c52d6p-1;

inline constexpr uint32_t kPowfTableOrigin = 0x3f330000;      // bits of 0x1.66p-1f
inline constexpr uint32_t kPowfSignBias = uint32_t{1} << 16;  // the sign bit once shifted by 47

// log2 of the float whose bits are ix (normalised: a subnormal's exponent
// field already negative).
EXACTVQ_LIBM_FN double powf_log2_of_bits(uint32_t ix) {
  const uint32_t offset = ix - kPowfTableOrigin;
  const int i = static_cast<int>((offset >> 19) % 16);
  const uint32_t top = offset & 0xff800000u;
  const uint32_t iz = ix - top;
  const int k = static_cast<int32_t>(top) >> 23;
  const double z = static_cast<double>(float_of(iz));
  const double r = fused(z, powf_log2_table()[i].inv_c, -1.0);
  const double y0 = static_cast<double>(k) + powf_log2_table()[i].log2_c;
  const double a01 = fused(r, kPowfLog2A0, kPowfLog2A1);
  const double a23 = fused(r, kPowfLog2A2, kPowfLog2A3);
  const double r2 = r * r;
  const double q = fused(r, kPowfLog2A4, y0);
  const double r4 = r2 * r2;
  const double low = fused(r2, a23, q);
  return fused(a01, r4, low);
}

// sign * 2^xd as a double (then rounded once to float by the caller).
EXACTVQ_LIBM_FN double powf_exp2_with_sign(double xd, uint32_t sign_bias) {
  double kd = xd + kPowfExp2Shift;
  const uint64_t ki = bits_of(kd);
  kd = kd - kPowfExp2Shift;
  const double r = xd - kd;
  const uint64_t t = powf_exp2_table()[ki % 32] + ((ki + sign_bias) << 47);
  const double s = double_of(t);
  const double z = fused(r, kPowfExp2C0, kPowfExp2C1);
  const double r2 = r * r;
  const double y = fused(r, kPowfExp2C2, 1.0);
  return fused(z, r2, y) * s;
}

// 0 if iy (finite, non-zero) is not an integer, 1 if odd, 2 if even.
EXACTVQ_LIBM_FN int powf_integer_kind(uint32_t iy) {
  const int e = static_cast<int>(iy >> 23 & 0xff);
  if (e < 0x7f) return 0;
  if (e > 0x7f + 23) return 2;
  const uint32_t unit = uint32_t{1} << (0x7f + 23 - e);
  if ((iy & (unit - 1)) != 0) return 0;
  return (iy & unit) != 0 ? 1 : 2;
}

EXACTVQ_LIBM_FN bool powf_zero_inf_nan(uint32_t i) { return 2 * i - 1 >= 2u * 0x7f800000u - 1; }

EXACTVQ_LIBM_FN bool signalling_nan(float x) {
  return 2 * (bits_of(x) ^ 0x00400000u) > 2u * 0x7fc00000u;
}

// glibc's float error results (math_errf.c), computed the same way.
EXACTVQ_LIBM_FN float scaled_square(bool negative, float v) { return (negative ? -v : v) * v; }

}  // namespace exactvq::libm::detail

namespace exactvq::libm::portable {

EXACTVQ_LIBM_FN float powf(float x, float y) {
  using namespace detail;
  uint32_t sign_bias = 0;
  uint32_t ix = bits_of(x);
  const uint32_t iy = bits_of(y);
  if (ix - 0x00800000u >= 0x7f800000u - 0x00800000u || powf_zero_inf_nan(iy)) {
    // x is zero, subnormal, negative, infinite or NaN, or y is zero,
    // infinite or NaN.
    if (powf_zero_inf_nan(iy)) {
      if (2 * iy == 0) return signalling_nan(x) ? nan_sum(x, y) : 1.0f;
      if (ix == 0x3f800000u) return signalling_nan(y) ? nan_sum(x, y) : 1.0f;
      if (2 * ix > 2u * 0x7f800000u || 2 * iy > 2u * 0x7f800000u) return nan_sum(x, y);
      if (2 * ix == 2u * 0x3f800000u) return 1.0f;
      if ((2 * ix < 2u * 0x3f800000u) == !(iy & 0x80000000u)) return 0.0f;
      return y * y;
    }
    if (powf_zero_inf_nan(ix)) {
      if (2 * ix > 2u * 0x7f800000u) {
        // NaN x: x86's x * x and 1 / x2 give x quieted, and the negation below
        // flips its sign; a GPU's product would give its own NaN instead.
        uint32_t r = ix | 0x00400000u;
        if ((ix & 0x80000000u) != 0 && powf_integer_kind(iy) == 1) r ^= 0x80000000u;
        return float_of(r);
      }
      float x2 = x * x;
      bool negative = false;
      if ((ix & 0x80000000u) != 0 && powf_integer_kind(iy) == 1) {
        x2 = -x2;
        negative = true;
      }
      if (2 * ix == 0 && (iy & 0x80000000u) != 0) return (negative ? -1.0f : 1.0f) / float_of(0u);
      return (iy & 0x80000000u) != 0 ? 1 / x2 : x2;
    }
    // x and y finite and non-zero.
    if ((ix & 0x80000000u) != 0) {
      const int kind = powf_integer_kind(iy);
      if (kind == 0) return invalid_result(x);
      if (kind == 1) sign_bias = kPowfSignBias;
      ix &= 0x7fffffffu;
    }
    if (ix < 0x00800000u) {
      ix = bits_of(x * 0x1p23f);
      ix &= 0x7fffffffu;
      ix -= 23u << 23;
    }
  }
  const double log2_x = powf_log2_of_bits(ix);
  const double ylogx = static_cast<double>(y) * log2_x;
  if ((bits_of(ylogx) >> 47 & 0xffff) >= bits_of(126.0) >> 47) {
    // |y log2 x| >= 126: the result may overflow or underflow.
    const bool negative = sign_bias != 0;
    if (ylogx > 0x1.fffffffd1d571p+6) return scaled_square(negative, 0x1p97f);  // inf
    // (glibc's check for 0x1.fffffa3aae2p+6 < ylogx only matters when not
    // rounding to nearest.)
    if (ylogx <= -150.0) return scaled_square(negative, 0x1p-95f);   // 0
    if (ylogx < -149.0) return scaled_square(negative, 0x1.4p-75f);  // the smallest subnormal
  }
  return static_cast<float>(powf_exp2_with_sign(ylogx, sign_bias));
}

}  // namespace exactvq::libm::portable
