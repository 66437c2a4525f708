// The exact sum's conversions against independent formulations, on random and
// constructed hard cases (ties, sticky bits, the rounding-to-zero boundary).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "metrics/ssim/fixed_point.h"

namespace exactvq::ssim {
namespace {

// An independent q = round_half_even(term * 2^64): below 2^-12 the scaled value
// is under 2^52 and nearbyint (ties to even in the default mode) is exact in
// binary64; above it the scaled double is already an integer.
int128 reference_fixed64(double term) {
  const double scaled = std::ldexp(term, 64);
  if (std::fabs(term) < 0x1p-12) return static_cast<int128>(std::nearbyint(scaled));
  return static_cast<int128>(scaled);
}

double from_bits(uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

TEST(ToFixed64, ZeroAndSigns) {
  EXPECT_EQ(to_fixed64(0.0), 0);
  EXPECT_EQ(to_fixed64(-0.0), 0);
  EXPECT_EQ(to_fixed64(1.0), int128{1} << 64);
  EXPECT_EQ(to_fixed64(-1.0), -(int128{1} << 64));
  EXPECT_EQ(to_fixed64(65536.0), int128{1} << 80);
}

TEST(ToFixed64, TiesGoToEven) {
  // (2k+1) * 2^-65 lies exactly halfway between k and k+1 units of 2^-64.
  for (int64_t k = 0; k < 2000; ++k) {
    const double t = std::ldexp(double(2 * k + 1), -65);
    const int128 expect = (k % 2 == 0) ? k : k + 1;
    ASSERT_EQ(to_fixed64(t), expect) << "k=" << k;
    ASSERT_EQ(to_fixed64(-t), -expect) << "k=" << k;
  }
  // Just above and below a tie: the sticky bits decide.
  const double tie = std::ldexp(5.0, -65);  // 2.5 units
  EXPECT_EQ(to_fixed64(tie), 2);
  EXPECT_EQ(to_fixed64(std::nextafter(tie, 1.0)), 3);
  EXPECT_EQ(to_fixed64(std::nextafter(tie, 0.0)), 2);
}

TEST(ToFixed64, RoundingToZeroBoundary) {
  EXPECT_EQ(to_fixed64(0x1p-65), 0);                       // exactly half: even is 0
  EXPECT_EQ(to_fixed64(std::nextafter(0x1p-65, 1.0)), 1);  // above half
  EXPECT_EQ(to_fixed64(0x1.fffffffffffffp-66), 0);         // below half
  EXPECT_EQ(to_fixed64(0x1p-200), 0);
  EXPECT_EQ(to_fixed64(from_bits(1)), 0);  // smallest subnormal
  EXPECT_EQ(to_fixed64(-0x1p-64), -1);
}

TEST(ToFixed64, RandomAgainstIndependentFormulation) {
  std::mt19937_64 rng(20261130);
  for (int i = 0; i < 2'000'000; ++i) {
    // Random sign, significand and an exponent over the range terms take
    // (|term| <= 2^16) and well below the 2^-64 unit.
    const int e = int(rng() % 100) - 83;
    const double t = std::ldexp(double(rng() >> 11) / 0x1p53, e) * ((rng() & 1) ? -1 : 1);
    ASSERT_EQ(to_fixed64(t), reference_fixed64(t)) << std::hexfloat << t;
  }
}

TEST(ToFixed64, RefusesNonFinite) {
  EXPECT_THROW(to_fixed64(INFINITY), std::domain_error);
  EXPECT_THROW(to_fixed64(NAN), std::domain_error);
  EXPECT_THROW(to_fixed64(0x1p62), std::domain_error);
  EXPECT_NO_THROW(to_fixed64(0x1.fffffffffffffp61));
}

TEST(Int128ToDouble, MatchesCompilerConversion) {
  // GCC's __int128 -> double conversion rounds to nearest even; ours must agree.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2'000'000; ++i) {
    const int bits = int(rng() % 127) + 1;
    uint128 u = (uint128{rng()} << 64) | rng();
    u >>= (128 - bits);
    int128 v = static_cast<int128>(u >> 1);
    if (rng() & 1) v = -v;
    ASSERT_EQ(int128_to_double(v), static_cast<double>(v));
  }
}

TEST(Int128ToDouble, TiesAndCarries) {
  for (int shift = 1; shift < 70; ++shift) {
    for (uint64_t m : {uint64_t{1} << 52, (uint64_t{1} << 53) - 1, (uint64_t{1} << 52) | 1}) {
      const int128 base = int128{static_cast<int64_t>(m)} << shift;
      const int128 half = int128{1} << (shift - 1);
      for (int128 v : {base, base + half, base - half, base + half + 1, base + half - 1}) {
        ASSERT_EQ(int128_to_double(v), static_cast<double>(v));
        ASSERT_EQ(int128_to_double(-v), static_cast<double>(-v));
      }
    }
  }
  EXPECT_EQ(int128_to_double(0), 0.0);
}

TEST(ExactSum, ScoreIsScaledQuotient) {
  ExactSum s;
  s.add(65536.0, 65536);
  s.add(32768.0, 65536);
  EXPECT_EQ(s.score(), 0.75);
  ExactSum a, b;
  a.add(0.1, 3);
  b.add(-0.3, 5);
  ExactSum ab = a, ba = b;
  ab += b;
  ba += a;
  EXPECT_EQ(ab, ba);
}

}  // namespace
}  // namespace exactvq::ssim
