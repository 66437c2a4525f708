// libm::atan2 against the host's glibc 2.36 atan2, bit for bit.
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

void check(MismatchCounter& m, double y, double x) {
  m.check(libm::atan2(y, x), testing::host_atan2(y, x), y, x);
}

TEST(Atan2, OperandClasses) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("atan2 operand classes");
  std::vector<double> ops(std::begin(testing::kSpecialOperands),
                          std::end(testing::kSpecialOperands));
  for (double a :
       {0x1p-500, 0x1p500, 0x1p-501, 0x1p501, 0x1p-1000, 0x1p1000, 3.0, 0.1, 1e-20, 1e20})
    for (double s : {1.0, -1.0}) ops.push_back(s * a);
  for (double y : ops)
    for (double x : ops) check(m, y, x);
  // All four quadrants and both octants of each, ratios across the series
  // boundary (1/16), every table node (i + 16)/256 and the midpoints, and
  // ratios near 1.
  for (int i = 0; i <= 512; ++i) {
    const double u = (32.0 + i) / 512.0;
    for (int d = -3; d <= 3; ++d) {
      const double r = std::bit_cast<double>(bits(u) + static_cast<uint64_t>(d));
      for (double sy : {1.0, -1.0})
        for (double sx : {1.0, -1.0}) {
          check(m, sy * r, sx * 1.0);
          check(m, sy * 1.0, sx * r);
          check(m, sy * r * 7.5, sx * 7.5);
          check(m, sy * 3e-300, sx * 3e-300 / r);
        }
    }
  }
  // Exponent gaps around 57 binades (the "ratio is tiny" cut) and the
  // 2^+-500 rescaling.
  std::mt19937_64 rng(19);
  for (int n = 0; n < 200000; ++n) {
    const int gap = static_cast<int>(rng() % 130) - 65;
    const double a = std::ldexp(1.0 + static_cast<double>(rng() >> 12) * 0x1p-52, gap);
    const double scale = std::ldexp(1.0, static_cast<int>(rng() % 2000) - 1000);
    check(m, (rng() & 1 ? a : -a) * scale, (rng() & 1 ? 1.0 : -1.0) * scale);
  }
  EXPECT_EQ(m.mismatches(), 0u);
}

TEST(Atan2, ChromaComponentsAsCiedeFormsThem) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("atan2 Lab components");
  // ciede: atan2(b, a') on float-valued Lab components, a' = a (1 + G).
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<float> comp(-128.0f, 128.0f);
  for (int n = 0; n < 1000000; ++n) check(m, comp(rng), comp(rng));
  for (int b = -128; b <= 128; ++b)
    for (int a = -128; a <= 128; ++a) check(m, b, a * 1.1);
  EXPECT_EQ(m.mismatches(), 0u);
}

TEST(Atan2, SeededRandomOperands) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("atan2 random");
  std::mt19937_64 rng(20260212);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int n = 0; n < 1500000; ++n) {
    check(m, unit(rng), unit(rng));
    check(m, std::bit_cast<double>(rng()), std::bit_cast<double>(rng()));  // any bits at all
  }
  EXPECT_EQ(m.mismatches(), 0u);
}

}  // namespace
}  // namespace exactvq::libm
