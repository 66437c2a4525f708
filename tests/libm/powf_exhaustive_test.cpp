// libm::powf against the host's glibc 2.36 powf on every float x, for the
// exponents ciede passes (7 and 2); one case per sign of x, several minutes
// each on one core, so disabled in the default run: run them with
// libm_exhaustive_tests --gtest_also_run_disabled_tests.
#include <cstdint>

#include "libm/host_reference.h"
#include "libm/libm.h"

namespace exactvq::libm {
namespace {

// Every float whose sign bit is sign (0 or 1).
void sweep_every_float(uint32_t sign, float y, const char* what) {
  testing::MismatchCounter m(what);
  const uint64_t first = uint64_t{sign} << 31;
  for (uint64_t b = first; b < first + (uint64_t{1} << 31); ++b) {
    const float x = std::bit_cast<float>(static_cast<uint32_t>(b));
    m.check(libm::powf(x, y), testing::host_powf(x, y), x, y);
  }
  EXPECT_EQ(m.mismatches(), 0u);
}

TEST(PowfExhaustive, DISABLED_EveryPositiveFloatToTheSeventh) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  sweep_every_float(0, 7.0f, "powf every float x >= +0, y = 7");
}

TEST(PowfExhaustive, DISABLED_EveryNegativeFloatToTheSeventh) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  sweep_every_float(1, 7.0f, "powf every float x <= -0, y = 7");
}

TEST(PowfExhaustive, DISABLED_EveryPositiveFloatSquared) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  sweep_every_float(0, 2.0f, "powf every float x >= +0, y = 2");
}

TEST(PowfExhaustive, DISABLED_EveryNegativeFloatSquared) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  sweep_every_float(1, 2.0f, "powf every float x <= -0, y = 2");
}

}  // namespace
}  // namespace exactvq::libm
