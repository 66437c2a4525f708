// libm::log10 against the host's glibc 2.36 log10, bit for bit.
#include <cmath>
#include <cstdint>

#include "libm/host_reference.h"
#include "libm/libm.h"

namespace exactvq::libm {
namespace {

using testing::MismatchCounter;

void check(MismatchCounter& m, double x) { m.check(libm::log10(x), testing::host_log10(x), x); }

TEST(Log10, OperandClasses) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("log10 operand classes");
  testing::for_each_log_operand(64, 46, 1.0 - 0x1.5b51p-5, 1.0 + 0x1.6ab2p-5,
                                [&](double x) { check(m, x); });
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
  testing::for_each_random_log_operand(20260208, [&](double x) { check(m, x); });
  EXPECT_EQ(m.mismatches(), 0u);
}

}  // namespace
}  // namespace exactvq::libm
