// libm::log2 against the host's glibc 2.36 log2, bit for bit.
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
  std::mt19937_64 rng(20260205);
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
