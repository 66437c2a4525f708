// libm::powf against the host's glibc 2.36 powf on every float x, for the
// exponents ciede passes (7 and 2). About four minutes on one core: label
// "long", outside the default run's budget.
#include <cstdint>

#include "libm/host_reference.h"
#include "libm/libm.h"

namespace exactvq::libm {
namespace {

void sweep_every_float(float y, const char* what) {
  testing::MismatchCounter m(what);
  for (uint64_t b = 0; b <= 0xffffffffu; ++b) {
    const float x = std::bit_cast<float>(static_cast<uint32_t>(b));
    m.check(libm::powf(x, y), ::powf(x, y), x, y);
  }
  EXPECT_EQ(m.mismatches(), 0u);
}

TEST(PowfExhaustive, EveryFloatToTheSeventh) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  sweep_every_float(7.0f, "powf every float x, y = 7");
}

TEST(PowfExhaustive, EveryFloatSquared) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  sweep_every_float(2.0f, "powf every float x, y = 2");
}

}  // namespace
}  // namespace exactvq::libm
