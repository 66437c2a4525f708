// libm::exp against the host's glibc 2.36 exp, bit for bit.
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

void check(MismatchCounter& m, double x) { m.check(libm::exp(x), testing::host_exp(x), x); }

TEST(Exp, OperandClasses) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("exp operand classes");
  for (double x : testing::kSpecialOperands) check(m, x);
  // The thresholds of the special branches (|x| = 2^-54, 512, 1024) and the
  // overflow and underflow limits, with their neighbours.
  for (double edge :
       {0x1p-54, 512.0, 1024.0, 709.782712893384, 0x1.62e42fefa39efp+9, 708.39641853226408,
        745.13321910194110, 744.44007192138126, 0x1.74385446d71c3p+9, 0x1.74910d52d3051p+9}) {
    for (int d = -64; d <= 64; ++d) {
      check(m, std::bit_cast<double>(bits(edge) + d));
      check(m, -std::bit_cast<double>(bits(edge) + d));
    }
  }
  // Every subnormal-result region and the overflow region densely.
  std::mt19937_64 rng(7);
  for (int n = 0; n < 200000; ++n) {
    check(m, double_in_bits(rng, bits(700.0), bits(710.0)));
    check(m, -double_in_bits(rng, bits(700.0), bits(746.0)));
  }
  // Integers and multiples of ln2/128 (the table's nodes) and half-way points.
  for (int n = -1100; n <= 1100; ++n) check(m, n);
  for (int k = -140000; k <= 140000; ++k) {
    const double node = k * (0x1.62e42fefa39efp-1 / 128);
    check(m, node);
    check(m, node + 0x1.62e42fefa39efp-1 / 256);
  }
  EXPECT_EQ(m.mismatches(), 0u);
}

TEST(Exp, SeededRandomOperands) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("exp random");
  std::mt19937_64 rng(20260206);
  std::uniform_real_distribution<double> wide(-750.0, 720.0);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int n = 0; n < 2000000; ++n) {
    check(m, wide(rng));
    check(m, unit(rng));
    check(m, double_in_bits(rng, 0, bits(HUGE_VAL)));  // every positive double equally
    check(m, -double_in_bits(rng, 0, bits(HUGE_VAL)));
  }
  EXPECT_EQ(m.mismatches(), 0u);
}

}  // namespace
}  // namespace exactvq::libm
