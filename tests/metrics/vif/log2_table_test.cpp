// vif's pinned log2 table against an independent computation: log2 in long
// double (64-bit significand), rounded to float where no double rounding can
// hide (each value is checked to lie far from a float midpoint), then libvmaf's
// round(log2f(i) * 2048).
#include "metrics/vif/log2_table.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace exactvq::vif {
namespace {

TEST(VifLog2Table, EqualsCorrectlyRoundedLog2f) {
  int checked = 0;
  for (uint32_t i = kLog2TableFirst; i < kLog2TableFirst + kLog2TableSize; ++i) {
    const long double exact = std::log2(static_cast<long double>(i));
    const float f = static_cast<float>(exact);
    const long double below = (static_cast<long double>(f) + std::nextafter(f, -INFINITY)) / 2;
    const long double above = (static_cast<long double>(f) + std::nextafter(f, INFINITY)) / 2;
    // long double log2 errs by far less than 1e-15 at [15, 16): f is then the
    // correctly rounded float of log2(i), whatever the last bits.
    ASSERT_GT(exact - below, 1e-15L) << "i " << i << ": too near a float midpoint to decide";
    ASSERT_GT(above - exact, 1e-15L) << "i " << i << ": too near a float midpoint to decide";
    const auto want = static_cast<uint16_t>(std::round(static_cast<double>(f * 2048.0f)));
    ASSERT_EQ(log2_table_at(i), want) << "i " << i;
    ++checked;
  }
  EXPECT_EQ(checked, 32768);
}

TEST(VifLog2Table, StepsRiseOneByOne) {
  const auto steps = log2_step_starts();
  EXPECT_EQ(log2_table_at(kLog2TableFirst), kLog2TableBase);
  EXPECT_EQ(log2_table_at(65535), 32768);
  for (size_t k = 0; k < steps.size(); ++k) {
    EXPECT_EQ(log2_table_at(steps[k]), kLog2TableBase + k + 1) << k;
    EXPECT_EQ(log2_table_at(steps[k] - 1u), kLog2TableBase + k) << k;
    if (k > 0) {
      EXPECT_LT(steps[k - 1], steps[k]);
    }
  }
}

TEST(VifLog2Table, LookupsNormaliseToSixteenBits) {
  // 2^18 = 32768 << 3: 2048 * 15 + 2048 * 3.
  EXPECT_EQ(log2_fixed_32(1u << 18), 2048 * 18);
  EXPECT_EQ(log2_fixed_64(uint64_t{1} << 40), 2048 * 40);
  EXPECT_EQ(log2_fixed_64(uint64_t{1} << 17), 2048 * 17);
  // The bits below the top 16 are dropped, not rounded.
  const uint32_t v = (65535u << 5) | 31u;
  EXPECT_EQ(log2_fixed_32(v), log2_table_at(65535) + 2048 * 5);
  EXPECT_EQ(log2_fixed_64(uint64_t{v} << 20), log2_table_at(65535) + 2048 * 25);
}

}  // namespace
}  // namespace exactvq::vif
