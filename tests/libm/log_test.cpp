// libm::log against the host's glibc 2.36 log, bit for bit.
#include <cmath>
#include <cstdint>

#include "libm/host_reference.h"
#include "libm/libm.h"

namespace exactvq::libm {
namespace {

using testing::MismatchCounter;

void check(MismatchCounter& m, double x) { m.check(libm::log(x), testing::host_log(x), x); }

TEST(Log, OperandClasses) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("log operand classes");
  testing::for_each_log_operand(128, 45, 1.0 - 0x1p-4, 1.0 + 0x1.09p-4,
                                [&](double x) { check(m, x); });
  EXPECT_EQ(m.mismatches(), 0u);
}

TEST(Log, SeededRandomOperands) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("log random");
  testing::for_each_random_log_operand(20260207, [&](double x) { check(m, x); });
  EXPECT_EQ(m.mismatches(), 0u);
}

}  // namespace
}  // namespace exactvq::libm
