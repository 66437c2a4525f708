// pool(): libvmaf's min, max, mean and harmonic mean, exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "output/report.h"
#include "report_fixture.h"

namespace exactvq {
namespace {

TEST(Pool, SingleValue) {
  const Pooled p = pool({0.75});
  EXPECT_EQ(p.min, 0.75);
  EXPECT_EQ(p.max, 0.75);
  EXPECT_EQ(p.mean, 0.75);
  EXPECT_EQ(p.harmonic_mean, 2.0 / (1.0 / 1.75 + 1.0 / 1.75) - 1.0);
}

TEST(Pool, SmallExactValues) {
  // 1/(v+1) for v = 0, 1, 3: 1, 1/2, 1/4 (exact); i_sum = 1.75; 3/1.75 - 1 = 5/7.
  const Pooled p = pool({1.0, 0.0, 3.0});
  EXPECT_EQ(p.min, 0.0);
  EXPECT_EQ(p.max, 3.0);
  EXPECT_EQ(p.mean, 4.0 / 3.0);
  EXPECT_EQ(p.harmonic_mean, 3.0 / 1.75 - 1.0);
}

TEST(Pool, FollowsLibvmafOperationOrder) {
  const std::vector<double> v = {0.944374, 0.1, 0.999999, 0.5, 0.3333333333333333, 0.87};
  double sum = 0.0, i_sum = 0.0;
  for (const double x : v) {
    sum += x;
    i_sum += 1.0 / (x + 1.0);
  }
  const Pooled p = pool(v);
  EXPECT_EQ(p.min, 0.1);
  EXPECT_EQ(p.max, 0.999999);
  EXPECT_TRUE(test::same_value(p.mean, sum / 6.0));
  EXPECT_TRUE(test::same_value(p.harmonic_mean, 6.0 / i_sum - 1.0));
}

TEST(Pool, HarmonicMeanOfEqualValuesIsThatValue) {
  const Pooled p = pool({0.5, 0.5, 0.5, 0.5});
  EXPECT_EQ(p.mean, 0.5);
  EXPECT_EQ(p.harmonic_mean, 0.5);  // 4 / (4 * 2/3) - 1 = 0.5 exactly here
}

TEST(Pool, EmptySeriesIsNan) {
  const Pooled p = pool({});
  EXPECT_TRUE(std::isnan(p.min));
  EXPECT_TRUE(std::isnan(p.max));
  EXPECT_TRUE(std::isnan(p.mean));
  EXPECT_TRUE(std::isnan(p.harmonic_mean));
}

TEST(Pool, NanAfterFirstFrameIsNeverMinOrMax) {
  // libvmaf replaces min/max only when v < min / v > max, false for NaN.
  const Pooled p = pool({0.5, test::kNan, 0.25, 0.75});
  EXPECT_EQ(p.min, 0.25);
  EXPECT_EQ(p.max, 0.75);
  EXPECT_TRUE(std::isnan(p.mean));
  EXPECT_TRUE(std::isnan(p.harmonic_mean));
}

TEST(Pool, NanInFirstFrameStaysMinAndMax) {
  const Pooled p = pool({test::kNan, 0.25, 0.75});
  EXPECT_TRUE(std::isnan(p.min));
  EXPECT_TRUE(std::isnan(p.max));
}

TEST(Pool, Infinities) {
  const Pooled p = pool({0.5, test::kInf, 0.25});
  EXPECT_EQ(p.min, 0.25);
  EXPECT_EQ(p.max, test::kInf);
  EXPECT_EQ(p.mean, test::kInf);
  // 1/(inf+1) = 0: 3 / (1/1.5 + 0 + 1/1.25) - 1, finite.
  EXPECT_TRUE(test::same_value(p.harmonic_mean, 3.0 / (1.0 / 1.5 + 0.0 + 1.0 / 1.25) - 1.0));
}

TEST(Pool, MinusOneGivesInfiniteInverseAndHarmonicMeanMinusOne) {
  // 1/(−1+1) = +inf, so i_sum = inf and n/i_sum − 1 = −1.
  const Pooled p = pool({-1.0, 0.5});
  EXPECT_EQ(p.harmonic_mean, -1.0);
}

}  // namespace
}  // namespace exactvq
