// softfp_add_bits against the CPU's binary64 addition, bit for bit, on every class of operand:
// zeros of both signs, subnormals, normals close together (cancellation) and far apart, sums
// that overflow, infinities, quiet and signalling NaN; 10^6 seeded pairs plus listed edges.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>

#include <fmt/format.h>

#include "softfp/softfp_add_bits.h"

namespace exactvq::softfp_test {
namespace {

uint64_t bits(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

double value(uint64_t b) {
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

// a + b with a as the first operand of the instruction (its NaN wins when both are NaN).
uint64_t native_add(uint64_t a, uint64_t b) {
#if defined(__x86_64__)
  double x = value(a);
  const double y = value(b);
  asm("addsd %1, %0" : "+x"(x) : "x"(y));
  return bits(x);
#else
  volatile double x = value(a), y = value(b);
  return bits(x + y);
#endif
}

bool both_nan(uint64_t a, uint64_t b) {
  auto nan = [](uint64_t v) {
    return ((v >> 52) & 0x7ff) == 0x7ff && (v & ((uint64_t{1} << 52) - 1));
  };
  return nan(a) && nan(b);
}

// A random operand of one class, its exponent field near `near` for the classes that take it.
uint64_t operand(std::mt19937_64& rng, int kind, uint64_t near) {
  const uint64_t sign = (rng() & 1) << 63, frac = rng() & ((uint64_t{1} << 52) - 1);
  switch (kind) {
    case 0:
      return sign;  // zero
    case 1:
      return sign | (frac >> (rng() % 52));  // subnormal
    case 2:
      return sign | (uint64_t(1 + rng() % 3) << 52) | frac;  // smallest normals
    case 3:
      return sign | (((near + rng() % 5 - 2) & 0x7ff) << 52) | frac;  // close exponent
    case 4:
      return sign | (uint64_t(1 + rng() % 2046) << 52) | frac;  // any normal
    case 5:
      return sign | (uint64_t(2045 + rng() % 2) << 52) | frac;  // near overflow
    case 6:
      return sign | (uint64_t{0x7ff} << 52);  // infinity
    case 7:
      return sign | (uint64_t{0x7ff} << 52) | (frac ? frac : 1);  // NaN
    default:
      return sign | (((near & 0x7ff) << 52)) | (frac & ~uint64_t{0xfff});  // few bits: ties
  }
}

TEST(SoftfpAddBits, EqualsNativeAdditionOnEveryClass) {
  std::mt19937_64 rng(0xadd'b175);
  int64_t compared = 0;
  for (int i = 0; i < 1'000'000; ++i) {
    const uint64_t near = 1 + rng() % 2046;
    uint64_t a = operand(rng, int(rng() % 9), near), b = operand(rng, int(rng() % 9), near);
    if (i % 4 == 0) b = (a ^ (uint64_t(1) << 63)) + (rng() % 5) - 2;  // near cancellation
    if (both_nan(a, b)) continue;
    const uint64_t want = native_add(a, b), got = softfp_add_bits(a, b);
    ASSERT_EQ(got, want) << fmt::format("{:016x} + {:016x}", a, b);
    ++compared;
  }
  EXPECT_GT(compared, 900'000);
}

TEST(SoftfpAddBits, EdgesEqualNativeAddition) {
  const uint64_t edges[] = {0,
                            uint64_t{1} << 63,
                            1,
                            (uint64_t{1} << 52) - 1,
                            uint64_t{1} << 52,
                            (uint64_t{1} << 63) | 1,
                            (uint64_t{1} << 63) | (uint64_t{1} << 52),
                            bits(1.0),
                            bits(-1.0),
                            bits(0x1p-53),
                            bits(0x1.8p-53),
                            bits(-0x1p-53),
                            bits(0x1.fffffffffffffp1023),
                            bits(-0x1.fffffffffffffp1023),
                            bits(0x1p970),
                            bits(0x1p971),
                            uint64_t{0x7ff} << 52,
                            uint64_t{0xfff} << 52,
                            uint64_t{0x7ff8} << 48,
                            uint64_t{0xfff8} << 48,
                            (uint64_t{0x7ff} << 52) | 1,
                            (uint64_t{0x7ff4} << 48) | 5};
  for (uint64_t a : edges)
    for (uint64_t b : edges) {
      if (both_nan(a, b)) continue;
      EXPECT_EQ(softfp_add_bits(a, b), native_add(a, b)) << fmt::format("{:016x} + {:016x}", a, b);
    }
}

}  // namespace
}  // namespace exactvq::softfp_test
