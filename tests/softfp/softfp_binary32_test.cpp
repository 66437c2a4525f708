// binary32 on softfp (softfp/softfp_binary32.h) against the CPU's casts and
// float arithmetic, bit for bit: the widening of every 997th pattern, the
// rounding of random doubles over binary32's whole range (normal, subnormal,
// below the least subnormal, and past the largest float to infinity) and of
// the midpoints between neighbouring floats, and +, -, *, / of random floats of
// every binade, subnormals and zeros included. The bit casts of
// core/portable_bits.h are checked on the way.
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/portable_bits.h"
#include "softfp_test_util.h"
#include "softfp/softfp_binary32.h"

namespace exactvq::softfp_test {
namespace {

uint32_t bits_of_float(float v) { return exactvq_f32_bits(v); }
float float_of(uint32_t b) { return exactvq_f32_of_bits(b); }

TEST(SoftfpBinary32, BitCastsAreTheBytes) {
  for (const uint32_t b : {0u, 1u, 0x00800000u, 0x3F800000u, 0x7F7FFFFFu, 0x7F800000u, 0x7FC00001u,
                           0x80000000u, 0xFF800000u}) {
    uint32_t copy;
    const float f = float_of(b);
    std::memcpy(&copy, &f, sizeof copy);
    EXPECT_EQ(copy, b);
    EXPECT_EQ(bits_of_float(f), b);
  }
  for (const uint64_t b : {uint64_t{0}, uint64_t{1}, uint64_t{0x3FF0000000000000u},
                           uint64_t{0x7FF8000000000001u}, uint64_t{0x8000000000000000u}}) {
    EXPECT_EQ(exactvq_f64_bits(exactvq_f64_of_bits(b)), b);
    EXPECT_EQ(exactvq_f64_bits(exactvq_f64_of_bits(b)), bits_of(double_of(b)));
  }
}

TEST(SoftfpBinary32, ConversionsBothWays) {
  Compare widen("binary32 to softfp");
  for (uint64_t b = 0; b < 0x7F800000u; b += 997) {
    for (const uint32_t sign : {0u, 0x80000000u}) {
      const float f = float_of(uint32_t(b) | sign);
      const softfp got = softfp_from_f32_bits(uint32_t(b) | sign);
      widen.check(softfp_to_bits(got) == bits_of(double(f)),
                  [&] { return fmt::format("{:a}: got {:a}", f, native(got)); });
    }
  }
  Compare narrow("softfp to binary32");
  std::mt19937_64 rng(seed() + 5);
  for (int i = 0; i < 2'000'000; ++i) {
    // Doubles from below half the least subnormal float (2^-151) to beyond the
    // largest float (2^129), and the midpoints between neighbouring floats.
    const uint64_t biased = 1023 - 151 + rng() % 281;
    double x = double_of((biased << 52) | (random_significand(rng) & (SOFTFP_HIDDEN - 1)));
    if (i % 2 && std::abs(x) < double(std::numeric_limits<float>::max())) {
      const float f = float(x);
      x = (double(f) + double(std::nextafter(f, std::numeric_limits<float>::max()))) / 2;
    }
    if (i % 3 == 0) x = -x;
    const uint32_t got = softfp_to_f32_bits(soft(x));
    narrow.check(got == bits_of_float(float(x)), [&] {
      return fmt::format("{:a}: want {:a}, got {:a}", x, float(x), float_of(got));
    });
  }
}

// A random float: any finite pattern, or one of the least or greatest binades,
// or zero, so that sums cancel, products underflow and quotients overflow.
uint32_t random_float(std::mt19937_64& rng) {
  const uint32_t sign = uint32_t(rng() & 1) << 31;
  switch (rng() % 8) {
    case 0:
      return sign | uint32_t(rng() % 0x01000000u);  // subnormal or the least normal binade
    case 1:
      return sign | (0x7F000000u + uint32_t(rng() % 0x00800000u));  // the greatest binade
    case 2:
      return sign;
    default:
      return sign | uint32_t(rng() % 0x7F800000u);
  }
}

TEST(SoftfpBinary32, OperationsAreTheCpusFloatOperations) {
  Compare c("float +, -, *, / on softfp");
  std::mt19937_64 rng(seed() + 6);
  for (int i = 0; i < 2'000'000; ++i) {
    const uint32_t a = random_float(rng), b = random_float(rng);
    const float fa = float_of(a), fb = float_of(b);
    const auto check = [&](const char* op, uint32_t got, float want) {
      c.check(got == bits_of_float(want), [&] {
        return fmt::format("{:a} {} {:a}: want {:a}, got {:a}", fa, op, fb, want, float_of(got));
      });
    };
    check("+", softfp_f32_add(a, b), fa + fb);
    check("-", softfp_f32_sub(a, b), fa - fb);
    check("*", softfp_f32_mul(a, b), fa * fb);
    if ((b & 0x7FFFFFFFu) != 0) check("/", softfp_f32_div(a, b), fa / fb);
  }
}

}  // namespace
}  // namespace exactvq::softfp_test
