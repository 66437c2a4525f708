// libm::log2 against the host's glibc 2.36 log2, bit for bit.
#include <cmath>
#include <cstdint>

#include "libm/host_reference.h"
#include "libm/libm.h"

namespace exactvq::libm {
namespace {

using testing::MismatchCounter;

void check(MismatchCounter& m, double x) { m.check(libm::log2(x), testing::host_log2(x), x); }

TEST(Log2, OperandClasses) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("log2 operand classes");
  testing::for_each_log_operand(64, 46, 1.0 - 0x1.5b51p-5, 1.0 + 0x1.6ab2p-5,
                                [&](double x) { check(m, x); });
  EXPECT_EQ(m.mismatches(), 0u);
}

TEST(Log2, SeededRandomOperands) {
  EXACTVQ_REQUIRE_HOST_REFERENCE();
  MismatchCounter m("log2 random");
  testing::for_each_random_log_operand(20260205, [&](double x) { check(m, x); });
  EXPECT_EQ(m.mismatches(), 0u);
}

}  // namespace
}  // namespace exactvq::libm
