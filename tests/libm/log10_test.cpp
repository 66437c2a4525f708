// libm::log10 against the host's glibc 2.36 log10, bit for bit.
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

void check(MismatchCounter& m, double x) { m.check(libm::log10(x), testing::host_log10(x), x); }

TEST(Log10, OperandClasses) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("log10 operand classes");
  for (double x : testing::kSpecialOperands) check(m, x);
  // Every power of two, subnormal ones included, and its neighbours.
  for (int e = -1074; e <= 1023; ++e) {
    const double p = std::ldexp(1.0, e);
    check(m, p);
    check(m, std::nextafter(p, 0.0));
    check(m, std::nextafter(p, HUGE_VAL));
  }
  // The table's 64 subinterval edges (and one ulp either side) at a few scales.
  const uint64_t origin = bits(0x1.6p-1);
  for (int i = 0; i <= 64; ++i)
    for (int e : {-1074, -1040, -1022, -300, -1, 0, 1, 2, 50, 1000}) {
      const double z = std::bit_cast<double>(origin + (uint64_t{static_cast<unsigned>(i)} << 46));
      const double x = std::ldexp(z, e);
      check(m, x);
      check(m, std::nextafter(x, 0.0));
      check(m, std::nextafter(x, HUGE_VAL));
    }
  // Every integer a 16-bit sample can hold, and their reciprocals.
  for (int n = 1; n <= 65535; ++n) {
    check(m, n);
    check(m, 1.0 / n);
  }
  // Near 1, where the second polynomial applies: the ends of its interval and
  // the first million doubles on each side of 1.
  for (double edge : {1.0 - 0x1.5b51p-5, 1.0 + 0x1.6ab2p-5})
    for (int d = -4; d <= 4; ++d) check(m, std::bit_cast<double>(bits(edge) + d));
  for (uint64_t d = 1; d <= 1000000; ++d) {
    check(m, std::bit_cast<double>(bits(1.0) + d));
    check(m, std::bit_cast<double>(bits(1.0) - d));
  }
  // Negative operands give NaN.
  for (double x : {-1e-300, -0.5, -1.0, -3.0, -1e300}) check(m, x);
  EXPECT_EQ(m.mismatches(), 0u);
}

TEST(Log10, PowersOfTenAndSampleRatios) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("log10 powers of ten and sample ratios");
  for (int n = -323; n <= 308; ++n) {
    const double p = std::pow(10.0, n);
    check(m, p);
    check(m, std::nextafter(p, 0.0));
    check(m, std::nextafter(p, HUGE_VAL));
  }
  // Ratios of 8- to 12-bit sample values and squared-error forms
  // (psnr_hvs-like peak^2 / mse).
  for (int a = 1; a <= 4095; a += 1)
    for (int b = 1; b <= 4095; b += 13) {
      check(m, static_cast<double>(a) / b);
      check(m, static_cast<double>(a) * a / b);
    }
  EXPECT_EQ(m.mismatches(), 0u);
}

TEST(Log10, SeededRandomOperands) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("log10 random");
  std::mt19937_64 rng(20260208);
  for (int n = 0; n < 2000000; ++n) {
    check(m, double_in_bits(rng, 0, bits(HUGE_VAL)));  // every positive double equally
    check(m, double_in_bits(rng, bits(0.5), bits(2.0)));
    check(m, double_in_bits(rng, bits(1.0 - 0x1p-4), bits(1.0 + 0x1p-4)));
    check(m, double_in_bits(rng, 1, bits(0x1p-1022)));  // subnormals
  }
  EXPECT_EQ(m.mismatches(), 0u);
}

}  // namespace
}  // namespace exactvq::libm
