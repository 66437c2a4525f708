// libm::sin and libm::cos against the host's glibc 2.36 sin and cos, bit for bit.
#include <cmath>
#include <cstdint>
#include <random>

#include "libm/host_reference.h"
#include "libm/libm.h"

namespace exactvq::libm {
namespace {

using testing::bits;
using testing::double_in_bits;
using testing::MismatchCounter;

void check(MismatchCounter& s, MismatchCounter& c, double x) {
  s.check(libm::sin(x), testing::host_sin(x), x);
  c.check(libm::cos(x), testing::host_cos(x), x);
}

void check_with_neighbours(MismatchCounter& s, MismatchCounter& c, double x, int n) {
  for (int d = -n; d <= n; ++d) {
    const double v = std::bit_cast<double>(bits(x) + static_cast<uint64_t>(d));
    check(s, c, v);
    check(s, c, -v);
  }
}

TEST(SinCos, OperandClasses) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter s("sin operand classes");
  MismatchCounter c("cos operand classes");
  for (double x : testing::kSpecialOperands) check(s, c, x);
  // The edges of the algorithm's ranges (2^-27, 2^-26, 0.126, 0.8555,
  // 2.4263, 105414350) and the largest finite double.
  for (uint64_t top :
       {0x3e400000u, 0x3e500000u, 0x3feb6000u, 0x400368fdu, 0x419921fbu, 0x7fefffffu})
    check_with_neighbours(s, c, std::bit_cast<double>(uint64_t{top} << 32), 64);
  check_with_neighbours(s, c, 0.126, 64);
  // Every table node i/128 and the midpoints between nodes, where the node
  // chosen changes.
  for (int i = 0; i <= 220; ++i) check_with_neighbours(s, c, i / 256.0, 4);
  // Near multiples of pi/2 (the reduction's hardest cases) up to 2^30, and a
  // few much larger.
  for (int n = 1; n <= 200000; ++n) check_with_neighbours(s, c, n * 1.5707963267948966, 2);
  for (double x :
       {1e22, 6381956970095103.0 * 0x1p797, 5.319372648326541e+255, 0x1.921fb54442d18p1023})
    check_with_neighbours(s, c, x, 16);
  // Every power of two, subnormal ones included.
  for (int e = -1074; e <= 1023; ++e) check_with_neighbours(s, c, std::ldexp(1.0, e), 1);
  EXPECT_EQ(s.mismatches(), 0u);
  EXPECT_EQ(c.mismatches(), 0u);
}

TEST(SinCos, HueAnglesAsCiedeFormsThem) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter s("sin hue angles");
  MismatchCounter c("cos hue angles");
  constexpr double kPi = 3.14159265358979323846;
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> degrees(0.0, 360.0);
  for (int n = 0; n < 500000; ++n) {
    const double h = degrees(rng) * kPi / 180.0;
    check(s, c, h);
    check(s, c, h - kPi / 6.0);
    check(s, c, 2.0 * h);
    check(s, c, 3.0 * h + kPi / 30.0);
    check(s, c, 4.0 * h - 7.0 * kPi / 20.0);
  }
  EXPECT_EQ(s.mismatches(), 0u);
  EXPECT_EQ(c.mismatches(), 0u);
}

TEST(SinCos, SeededRandomOperands) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter s("sin random");
  MismatchCounter c("cos random");
  std::mt19937_64 rng(20260211);
  std::uniform_real_distribution<double> small(-8.0, 8.0);
  std::uniform_real_distribution<double> medium(-1.1e8, 1.1e8);
  for (int n = 0; n < 1000000; ++n) {
    check(s, c, small(rng));
    check(s, c, medium(rng));
    check(s, c, double_in_bits(rng, 0, bits(HUGE_VAL)) * (rng() & 1 ? 1.0 : -1.0));
  }
  EXPECT_EQ(s.mismatches(), 0u);
  EXPECT_EQ(c.mismatches(), 0u);
}

}  // namespace
}  // namespace exactvq::libm
