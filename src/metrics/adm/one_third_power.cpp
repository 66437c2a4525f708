#include "metrics/adm/one_third_power.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace exactvq::adm {

namespace {

// The data of glibc's powf (Arm optimized-routines, MIT licence), as binary64 literals.

// log2 on [0x3f330000, 2 * 0x3f330000) split into 16 intervals: 1/c and
// log2(c) for a c near each centre.
struct Log2Entry {
  double inv_c, log2_c;
};
constexpr Log2Entry kLog2Table[16] = {
    {0x1.661ec79f8f3bep+0, -0x1.efec65b963019p-2}, {0x1.571ed4aaf883dp+0, -0x1.b0b6832d4fca4p-2},
    {0x1.49539f0f010bp+0, -0x1.7418b0a1fb77bp-2},  {0x1.3c995b0b80385p+0, -0x1.39de91a6dcf7bp-2},
    {0x1.30d190c8864a5p+0, -0x1.01d9bf3f2b631p-2}, {0x1.25e227b0b8eap+0, -0x1.97c1d1b3b7afp-3},
    {0x1.1bb4a4a1a343fp+0, -0x1.2f9e393af3c9fp-3}, {0x1.12358f08ae5bap+0, -0x1.960cbbf788d5cp-4},
    {0x1.0953f419900a7p+0, -0x1.a6f9db6475fcep-5}, {0x1p+0, 0x0p+0},
    {0x1.e608cfd9a47acp-1, 0x1.338ca9f24f53dp-4},  {0x1.ca4b31f026aap-1, 0x1.476a9543891bap-3},
    {0x1.b2036576afce6p-1, 0x1.e840b4ac4e4d2p-3},  {0x1.9c2d163a1aa2dp-1, 0x1.40645f0c6651cp-2},
    {0x1.886e6037841edp-1, 0x1.88e9c2c1b9ff8p-2},  {0x1.767dcf5534862p-1, 0x1.ce0a44eb17bccp-2},
};
// log1p(r) / ln 2 ~ A0 r^5 + A1 r^4 + A2 r^3 + A3 r^2 + A4 r.
constexpr double kLog2Poly[5] = {0x1.27616c9496e0bp-2, -0x1.71969a075c67ap-2, 0x1.ec70a6ca7baddp-2,
                                 -0x1.7154748bef6c8p-1, 0x1.71547652ab82bp0};
// Bits of 2^(i/32) less i << 47, so adding k << 47 scales by 2^(k div 32).
constexpr uint64_t kExp2Table[32] = {
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
    0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
    0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
    0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
};
// 2^r ~ C0 r^3 + C1 r^2 + C2 r + 1 on |r| <= 1/64.
constexpr double kExp2Poly[3] = {0x1.c6af84b912394p-5, 0x1.ebfce50fac4f3p-3, 0x1.62e42ff0c52d6p-1};
constexpr double kRoundShift = 0x1.8p+52 / 32;  // adding it rounds to a multiple of 1/32

// a * b + c, two roundings (the build never fuses them).
double mul_add(double a, double b, double c) { return a * b + c; }

// log2 of the float whose (normalised, possibly negative-exponent) bits are ix.
double log2_of_bits(uint32_t ix) {
  const uint32_t off = ix - 0x3f330000u;
  const int i = static_cast<int>((off >> 19) % 16);
  const uint32_t top = off & 0xff800000u;
  const uint32_t iz = ix - top;
  const int k = static_cast<int32_t>(top) >> 23;  // arithmetic shift
  const double z = static_cast<double>(std::bit_cast<float>(iz));
  const double r = mul_add(z, kLog2Table[i].inv_c, -1.0);
  const double y0 = kLog2Table[i].log2_c + static_cast<double>(k);
  const double r2 = r * r;
  double y = mul_add(kLog2Poly[0], r, kLog2Poly[1]);
  const double p = mul_add(kLog2Poly[2], r, kLog2Poly[3]);
  const double r4 = r2 * r2;
  double q = mul_add(kLog2Poly[4], r, y0);
  q = mul_add(p, r2, q);
  y = mul_add(y, r4, q);
  return y;
}

// 2^xd as a float, for xd in (-150, 128).
float exp2_to_float(double xd) {
  double kd = xd + kRoundShift;
  const uint64_t ki = std::bit_cast<uint64_t>(kd);
  kd -= kRoundShift;
  const double r = xd - kd;
  const uint64_t t = kExp2Table[ki % 32] + (ki << 47);
  const double s = std::bit_cast<double>(t);
  const double z = mul_add(kExp2Poly[0], r, kExp2Poly[1]);
  const double r2 = r * r;
  double y = mul_add(kExp2Poly[2], r, 1.0);
  y = mul_add(z, r2, y);
  y = y * s;
  return static_cast<float>(y);
}

}  // namespace

float one_third_power(float x) {
  uint32_t ix = std::bit_cast<uint32_t>(x);
  if (std::isnan(x) || x < 0) return std::numeric_limits<float>::quiet_NaN();
  if (x == 0) return 0.0f;
  if (std::isinf(x)) return x;
  if (ix < 0x00800000u) {
    // Subnormal: scale into the normal range, the exponent going negative.
    ix = std::bit_cast<uint32_t>(x * 0x1p23f);
    ix -= 23u << 23;
  }
  const double ylogx = static_cast<double>(kOneThirdF) * log2_of_bits(ix);
  // |ylogx| < 50 here (x^(1/3) of any float), far from glibc's overflow and
  // underflow branches.
  return exp2_to_float(ylogx);
}

}  // namespace exactvq::adm
