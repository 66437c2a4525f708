// glibc 2.36's log2 (Arm optimized-routines, FMA variant), pinned: a
// 64-entry table of 1/c and log2(c) reduces x = 2^k z to r = z/c - 1, and a
// degree-6 polynomial in r finishes; inputs within a few percent of 1 take a
// degree-11 polynomial instead. The multiply-adds fused below are those the
// FMA build fuses, found in its machine code (docs/spec/libm.md).
#include <bit>
#include <cmath>
#include <cstdint>

#include "libm/fp_bits.h"
#include "libm/libm.h"

namespace exactvq::libm {

namespace {

using detail::bits_of;
using detail::double_of;
using detail::fused;

// 1/ln 2 split: a 33-bit head (exact products with r's head) and its tail.
constexpr double kInvLn2Hi = 0x1.71547652p+0;
constexpr double kInvLn2Lo = 0x1.705fc2eefa2p-33;

// log2(1 + r) - r/ln 2 ~ r^2 (P0 + P1 r + ... + P5 r^5) for |r| < 1/128.
constexpr double kPoly[6] = {-0x1.71547652b8339p-1, 0x1.ec709dc3a04bep-2,  -0x1.7154764702ffbp-2,
                             0x1.2776c50034c48p-2,  -0x1.ec7b328ea92bcp-3, 0x1.a6225e117f92ep-3};

// Near 1: log2(1 + r) - r/ln 2 ~ r^2 (Q0 + Q1 r + ... + Q9 r^9).
constexpr double kNearOnePoly[10] = {
    -0x1.71547652b82fep-1, 0x1.ec709dc3a03f7p-2, -0x1.71547652b7c3fp-2, 0x1.2776c50f05be4p-2,
    -0x1.ec709dd768fe5p-3, 0x1.a61761ec4e736p-3, -0x1.7153fbc64a79bp-3, 0x1.484d154f01b4ap-3,
    -0x1.289e4a72c383cp-3, 0x1.0b32f285aee66p-3};

// For each of 64 subintervals of [0x1.6p-1, 0x1.6p0): 1/c and log2(c) for a c
// near its centre (1/c rounded so that z/c - 1 is exact with one fma).
struct Entry {
  double inv_c, log2_c;
};
constexpr Entry kTable[64] = {
    {0x1.724286bb1acf8p+0, -0x1.1095feecdbp-1},  {0x1.6e1f766d2cca1p+0, -0x1.08494bd76dp-1},
    {0x1.6a13d0e30d48ap+0, -0x1.00143aee8f8p-1}, {0x1.661ec32d06c85p+0, -0x1.efec5360b4p-2},
    {0x1.623fa951198f8p+0, -0x1.dfdd91ab7ep-2},  {0x1.5e75ba4cf026cp+0, -0x1.cffae0cc79p-2},
    {0x1.5ac055a214fb8p+0, -0x1.c043811fdap-2},  {0x1.571ed0f166e1ep+0, -0x1.b0b67323aep-2},
    {0x1.53909590bf835p+0, -0x1.a152f5a2dbp-2},  {0x1.5014fed61adddp+0, -0x1.9217f5af86p-2},
    {0x1.4cab88e487bdp+0, -0x1.8304db0719p-2},   {0x1.49539b4334feep+0, -0x1.74189f9a9ep-2},
    {0x1.460cbdfafd569p+0, -0x1.6552bb5199p-2},  {0x1.42d664ee4b953p+0, -0x1.56b23a29b1p-2},
    {0x1.3fb01111dd8a6p+0, -0x1.483650f5fap-2},  {0x1.3c995b70c5836p+0, -0x1.39de937f6ap-2},
    {0x1.3991c4ab6fd4ap+0, -0x1.2baa1538d6p-2},  {0x1.3698e0ce099b5p+0, -0x1.1d98340ca4p-2},
    {0x1.33ae48213e7b2p+0, -0x1.0fa853a40ep-2},  {0x1.30d191985bdb1p+0, -0x1.01d9c32e73p-2},
    {0x1.2e025cab271d7p+0, -0x1.e857da2fa6p-3},  {0x1.2b404cf13cd82p+0, -0x1.cd3c8633d8p-3},
    {0x1.288b02c7ccb5p+0, -0x1.b26034c14ap-3},   {0x1.25e2263944de5p+0, -0x1.97c1c2f4fep-3},
    {0x1.234563d8615b1p+0, -0x1.7d6023f8p-3},    {0x1.20b46e33eaf38p+0, -0x1.633a71a05ep-3},
    {0x1.1e2eefdcda3ddp+0, -0x1.494f5e957p-3},   {0x1.1bb4a580b393p+0, -0x1.2f9e424e0ap-3},
    {0x1.19453847f22p+0, -0x1.162595afdcp-3},    {0x1.16e06c0d5d73cp+0, -0x1.f9c9a75bd8p-4},
    {0x1.1485f47b7e4c2p+0, -0x1.c7b575bf9cp-4},  {0x1.12358ad0085d1p+0, -0x1.960c60ff48p-4},
    {0x1.0fef00f532227p+0, -0x1.64ce247b6p-4},   {0x1.0db2077d03a8fp+0, -0x1.33f78b2014p-4},
    {0x1.0b7e6d65980d9p+0, -0x1.0387d1a42cp-4},  {0x1.0953efe7b408dp+0, -0x1.a6f9208b5p-5},
    {0x1.07325cac53b83p+0, -0x1.47a954f77p-5},   {0x1.05197e40d1b5cp+0, -0x1.d23a8c50cp-6},
    {0x1.03091c1208ea2p+0, -0x1.16a262978p-6},   {0x1.0101025b37e21p+0, -0x1.720f8d8e8p-8},
    {0x1.fc07ef9caa76bp-1, 0x1.6fe53b15p-7},     {0x1.f4465d3f6f184p-1, 0x1.11ccce10f8p-5},
    {0x1.ecc079f84107fp-1, 0x1.c4dfc8c8b8p-5},   {0x1.e573a99975ae8p-1, 0x1.3aa321e574p-4},
    {0x1.de5d6f0bd3de6p-1, 0x1.918a0d08b8p-4},   {0x1.d77b681ff38b3p-1, 0x1.e72e9da044p-4},
    {0x1.d0cb5724de943p-1, 0x1.1dcd2507f6p-3},   {0x1.ca4b2dc0e7563p-1, 0x1.476ab03deap-3},
    {0x1.c3f8ee8d6cb51p-1, 0x1.7074377e22p-3},   {0x1.bdd2b4f020c4cp-1, 0x1.98ede8ba94p-3},
    {0x1.b7d6c006015cap-1, 0x1.c0db86ad2ep-3},   {0x1.b20366e2e338fp-1, 0x1.e840aafceep-3},
    {0x1.ac57026295039p-1, 0x1.0790ab4678p-2},   {0x1.a6d01bc2731ddp-1, 0x1.1ac056801cp-2},
    {0x1.a16d3bc3ff18bp-1, 0x1.2db11d4feep-2},   {0x1.9c2d14967feadp-1, 0x1.406464ec58p-2},
    {0x1.970e4f47c9902p-1, 0x1.52dbe093afp-2},   {0x1.920fb3982bcf2p-1, 0x1.651902050dp-2},
    {0x1.8d30187f759f1p-1, 0x1.771d2cdeafp-2},   {0x1.886e5ebb9f66dp-1, 0x1.88e9c857d9p-2},
    {0x1.83c97b658b994p-1, 0x1.9a80155e16p-2},   {0x1.7f405ffc61022p-1, 0x1.abe186ed3dp-2},
    {0x1.7ad22181415cap-1, 0x1.bd0f2aea0ep-2},   {0x1.767dcf99eff8cp-1, 0x1.ce0a43dbf4p-2},
};

constexpr uint64_t kTableOrigin = std::bit_cast<uint64_t>(0x1.6p-1);
// Inputs in [1 - 0x1.5b51p-5, 1 + 0x1.6ab2p-5) take the near-one polynomial.
constexpr uint64_t kNearOneLow = std::bit_cast<uint64_t>(1.0 - 0x1.5b51p-5);
constexpr uint64_t kNearOneHigh = std::bit_cast<uint64_t>(1.0 + 0x1.6ab2p-5);

double near_one(double x) {
  const double r = x - 1.0;
  const double hi = r * kInvLn2Hi;
  double lo = fused(r, kInvLn2Lo, fused(r, kInvLn2Hi, -hi));
  const double r2 = r * r;
  const double r4 = r2 * r2;
  // The FMA build folds hi + p into fused forms: p = r2 * (Q0 + r Q1).
  const double q01 = fused(r, kNearOnePoly[1], kNearOnePoly[0]);
  const double y = fused(q01, r2, hi);
  lo = lo + fused(q01, r2, hi - y);
  const double q23 = fused(r, kNearOnePoly[3], kNearOnePoly[2]);
  const double q45 = fused(r, kNearOnePoly[5], kNearOnePoly[4]);
  const double q67 = fused(r, kNearOnePoly[7], kNearOnePoly[6]);
  const double q89 = fused(r, kNearOnePoly[9], kNearOnePoly[8]);
  const double upper = fused(q89, r2, q67);
  const double lower = fused(q45, r2, q23);
  const double tail = fused(upper, r4, lower);
  lo = fused(tail, r4, lo);
  return y + lo;
}

}  // namespace

double log2(double x) {
  uint64_t ix = bits_of(x);
  if (ix - kNearOneLow < kNearOneHigh - kNearOneLow) {
    if (ix == bits_of(1.0)) return 0.0;
    return near_one(x);
  }
  const uint32_t top = static_cast<uint32_t>(ix >> 48);
  if (top - 0x0010u >= 0x7ff0u - 0x0010u) {
    // Zero, subnormal, negative, infinite or NaN.
    if (ix * 2 == 0) return detail::divide_by_zero(true);
    if (ix == bits_of(HUGE_VAL)) return x;
    if ((top & 0x8000u) != 0 || (top & 0x7ff0u) == 0x7ff0u) return detail::invalid_result(x);
    // Subnormal: scale into the normal range, the exponent going below -1022.
    ix = bits_of(x * 0x1p52);
    ix -= uint64_t{52} << 52;
  }
  // x = 2^k z with z in [0x1.6p-1, 0x1.6p0); the table entry holds c near z.
  const uint64_t offset = ix - kTableOrigin;
  const int i = static_cast<int>((offset >> 46) % 64);
  const int k = static_cast<int>(static_cast<int64_t>(offset) >> 52);
  const uint64_t iz = ix - (offset & (uint64_t{0xfff} << 52));
  const double z = double_of(iz);
  const double kd = static_cast<double>(k);

  const double r = fused(z, kTable[i].inv_c, -1.0);
  const double t1 = r * kInvLn2Hi;
  const double t2 = fused(r, kInvLn2Lo, fused(kInvLn2Hi, r, -t1));
  const double t3 = kd + kTable[i].log2_c;
  const double hi = t1 + t3;
  const double lo = ((t3 - hi) + t1) + t2;

  const double r2 = r * r;
  const double r4 = r2 * r2;
  const double p01 = fused(r, kPoly[1], kPoly[0]);
  const double p23 = fused(r, kPoly[3], kPoly[2]);
  const double p45 = fused(r, kPoly[5], kPoly[4]);
  const double p = fused(p45, r4, fused(p23, r2, p01));
  const double y = fused(r2, p, lo);
  return y + hi;
}

}  // namespace exactvq::libm
