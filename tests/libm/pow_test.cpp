// libm::pow against the host's glibc 2.36 pow, bit for bit.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "libm/host_reference.h"
#include "libm/libm.h"

namespace exactvq::libm {
namespace {

using testing::bits;
using testing::double_in_bits;
using testing::MismatchCounter;

void check(MismatchCounter& m, double x, double y) {
  m.check(libm::pow(x, y), testing::host_pow(x, y), x, y);
}

std::vector<double> special_and_exact_operands() {
  std::vector<double> v(std::begin(testing::kSpecialOperands), std::end(testing::kSpecialOperands));
  for (double a : {0.25,          1.5,     3.0,        10.0,       0x1p-60,
                   0x1p-65,       0x1p-66, 0x1p63,     0x1p64,     0x1.fffffffffffffp62,
                   0x1p52,        0x1p53,  0x1p53 + 2, 0x1p52 + 1, 1.0 + 0x1p-52,
                   1.0 - 0x1p-53, 0.1,     1.0 / 3,    2.2,        1 / 2.4,
                   0x1p-1074,     1e-310,  1e300,      1023.0,     1024.0,
                   1075.0,        -1074.0})
    for (double s : {1.0, -1.0}) v.push_back(s * a);
  return v;
}

TEST(Pow, OperandClasses) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("pow operand classes");
  const std::vector<double> ops = special_and_exact_operands();
  for (double x : ops)
    for (double y : ops) check(m, x, y);
  // Integer and half-integer exponents on positive and negative bases.
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> base(-8.0, 8.0);
  for (int twice_y = -400; twice_y <= 400; ++twice_y)
    for (int n = 0; n < 200; ++n) check(m, base(rng), twice_y / 2.0);
  // Integer powers of small integers (exact results) and of 2 (down to the
  // subnormals and up to overflow).
  for (int b = -20; b <= 20; ++b)
    for (int e = -80; e <= 80; ++e) check(m, b, e);
  for (int e = -1100; e <= 1100; ++e) {
    check(m, 2.0, e);
    check(m, 0.5, e + 0.5);
    check(m, -2.0, e);
  }
  // Near overflow and underflow of the result: x^y around 2^±1024 and the
  // subnormal range, and x near 1 with huge y.
  for (int n = 0; n < 300000; ++n) {
    const double x = double_in_bits(rng, bits(0x1p-8), bits(0x1p8));
    const double target = std::uniform_real_distribution<double>(-1080.0, 1030.0)(rng);
    check(m, x, target / std::log2(x));
    check(m, double_in_bits(rng, bits(1.0 - 0x1p-20), bits(1.0 + 0x1p-20)),
          std::uniform_real_distribution<double>(-0x1p40, 0x1p40)(rng));
  }
  // Subnormal bases.
  for (int n = 0; n < 100000; ++n)
    check(m, double_in_bits(rng, 1, bits(0x1p-1022)),
          std::uniform_real_distribution<double>(-1.0, 1.0)(rng));
  EXPECT_EQ(m.mismatches(), 0u);
}

TEST(Pow, SampleValuesToMetricExponents) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("pow sample values");
  // Every 8- to 12-bit sample value, normalised and not, raised to exponents of
  // the kind the metrics use (gamma, CSF and colour-space exponents).
  for (int v = 0; v <= 4095; ++v)
    for (double y : {7.0,       2.0,
                     3.0,       0.5,
                     1.0 / 3,   2.2,
                     1 / 2.2,   2.4,
                     1 / 2.4,   0.45,
                     2.6,       0.1593017578125,
                     78.84375,  1.0 / 78.84375,
                     0.8359375, 18.8515625,
                     -0.5,      -1.0,
                     -2.0,      0.2,
                     1.5}) {
      check(m, v, y);
      check(m, v / 4095.0, y);
      check(m, v / 1023.0, y);
      check(m, v / 255.0, y);
    }
  EXPECT_EQ(m.mismatches(), 0u);
}

TEST(Pow, SeededRandomOperands) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("pow random");
  std::mt19937_64 rng(20260209);
  std::uniform_real_distribution<double> small_y(-10.0, 10.0);
  std::uniform_real_distribution<double> x_range(0.0, 10000.0);
  for (int n = 0; n < 2500000; ++n) {
    check(m, x_range(rng), small_y(rng));
    check(m, double_in_bits(rng, 0, bits(HUGE_VAL)), small_y(rng));
    check(m, double_in_bits(rng, 0, bits(HUGE_VAL)),
          double_in_bits(rng, 0, bits(HUGE_VAL)) * (rng() & 1 ? 1.0 : -1.0));
    check(m, std::bit_cast<double>(rng()), std::bit_cast<double>(rng()));  // any bits at all
  }
  EXPECT_EQ(m.mismatches(), 0u);
}

}  // namespace
}  // namespace exactvq::libm
