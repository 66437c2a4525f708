// softfp's square root (softfp/softfp_sqrt.h) against the CPU's sqrt and casts,
// bit for bit: random operands over every binade
// (with the other cases about 10^7 operands by default; EXACTVQ_SOFTFP_PAIRS scales them), square
// roots of binary32 values rounded back to binary32 (float_ssim's sd), and hard cases: exact
// squares, operands whose root lies within a few ulps of a rounding midpoint,
// the extremes of the range, subnormals, zeros and negatives.
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "softfp_test_util.h"
#include "softfp/softfp_sqrt.h"

namespace exactvq::softfp_test {
namespace {

uint32_t bits_of_float(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

float float_of(uint32_t b) {
  float v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

// sqrt(x) through softfp against std::sqrt, for x >= 0.
void check_sqrt(Compare& c, double x) {
  const double want = std::sqrt(x);
  const softfp got = softfp_sqrt(soft(x));
  c.check(softfp_is_valid(got) && softfp_to_bits(got) == bits_of(want),
          [&] { return fmt::format("sqrt({:a}): want {:a}, got {:a}", x, want, native(got)); });
}

// The binary32 value x: widened, its binary64 root, rounded to binary32.
void check_float_root(Compare& c, float x) {
  const float want = float(std::sqrt(double(x)));
  const uint32_t got = softfp_to_f32_bits(softfp_sqrt(softfp_from_f32_bits(bits_of_float(x))));
  c.check(got == bits_of_float(want), [&] {
    return fmt::format("f32(sqrt({:a})): want {:a}, got {:a}", x, want, float_of(got));
  });
}

TEST(SoftfpSqrt, RandomOperandsOfEveryBinade) {
  std::mt19937_64 rng(seed());
  Compare c("sqrt, random normal operands");
  const uint64_t n = random_pair_count() / 2;  // with the other tests' operands, 10^7 in all
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t biased = 1 + rng() % 2046;  // every normal exponent
    check_sqrt(c, double_of((biased << 52) | (random_significand(rng) & (SOFTFP_HIDDEN - 1))));
  }
}

TEST(SoftfpSqrt, RootsOfBinary32ValuesRoundedToBinary32) {
  std::mt19937_64 rng(seed() + 1);
  Compare c("f32(sqrt(f64(x))), random binary32 x");
  const uint64_t n = random_pair_count() / 4;
  for (uint64_t i = 0; i < n; ++i) check_float_root(c, float_of(uint32_t(rng() % 0x7F800000u)));
  // The products float_ssim roots: variances of samples in [0, 256) multiplied.
  for (uint64_t i = 0; i < n / 4; ++i) {
    const float a = float(rng() % 65536) / 256.0f, b = float(rng() % 65536) / 256.0f;
    check_float_root(c, (a * a / 3.0f) * (b * b / 7.0f));
  }
  for (float x : {0.0f, std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::min(),
                  std::numeric_limits<float>::max(), 1.0f, 2.0f, 4.0f, 0.25f})
    check_float_root(c, x);
}

TEST(SoftfpSqrt, ExactSquares) {
  std::mt19937_64 rng(seed() + 2);
  Compare c("sqrt, exact squares");
  for (int i = 0; i < 1'000'000; ++i) {
    const uint64_t k = 1 + rng() % (uint64_t{1} << 26);  // k^2 < 2^52: exact
    const int scale = int(rng() % 960) - 480;            // k^2 * 2^(2 scale + 1) stays finite
    check_sqrt(c, std::ldexp(double(k * k), 2 * scale));
    check_sqrt(c, std::ldexp(double(k * k), 2 * scale + 1));  // an odd exponent: not a square
  }
}

// Operands whose root lies close to the midpoint between two binary64 values:
// the midpoint m = y + ulp(y) / 2 squared in long double (64-bit significand),
// rounded to binary64, and its neighbours a few ulps either side.
TEST(SoftfpSqrt, RootsNearRoundingMidpoints) {
  std::mt19937_64 rng(seed() + 3);
  Compare c("sqrt, roots near midpoints");
  for (int i = 0; i < 300'000; ++i) {
    const uint64_t biased = 523 + rng() % 1000;  // y^2 finite and normal
    const double y = double_of((biased << 52) | (random_significand(rng) & (SOFTFP_HIDDEN - 1)));
    const long double mid =
        (long double)y + ((long double)std::nextafter(y, 2 * y) - (long double)y) / 2;
    double x = double(mid * mid);
    for (int k = 0; k < 3; ++k) x = std::nextafter(x, 0.0);
    for (int k = 0; k < 7; ++k, x = std::nextafter(x, 2 * x)) check_sqrt(c, x);
  }
}

TEST(SoftfpSqrt, ExtremesSubnormalsZerosAndNegatives) {
  Compare c("sqrt, extremes and subnormals");
  const double extremes[] = {std::numeric_limits<double>::min(),
                             std::numeric_limits<double>::max(),
                             std::nextafter(1.0, 2.0),
                             std::nextafter(1.0, 0.0),
                             2.0,
                             0.5,
                             3.0,
                             std::nextafter(4.0, 0.0),
                             std::nextafter(std::numeric_limits<double>::min(), 1.0)};
  for (double x : extremes) check_sqrt(c, x);
  std::mt19937_64 rng(seed() + 4);
  for (int i = 0; i < 100'000; ++i)
    check_sqrt(c, double_of(1 + rng() % (SOFTFP_HIDDEN - 1)));  // subnormal operands, normal roots
  const softfp plus = softfp_sqrt(soft(0.0)), minus = softfp_sqrt(soft(-0.0));
  EXPECT_EQ(softfp_to_bits(plus), bits_of(0.0));
  EXPECT_EQ(softfp_to_bits(minus), bits_of(-0.0));
  EXPECT_FALSE(softfp_is_valid(softfp_sqrt(soft(-1.0))));
  EXPECT_FALSE(softfp_is_valid(softfp_sqrt(soft(-std::numeric_limits<double>::min()))));
}

}  // namespace
}  // namespace exactvq::softfp_test
