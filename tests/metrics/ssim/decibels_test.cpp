#include <gtest/gtest.h>

#include <cmath>

#include "metrics/ssim/decibels.h"

namespace exactvq::ssim {
namespace {

TEST(Decibels, PerfectScoreIsInfiniteUnlessClipped) {
  EXPECT_EQ(to_db(1.0), INFINITY);
  const double limit = clip_db_limit(255, 576, 324);
  EXPECT_EQ(limit, std::ceil(10.0 * std::log10(255.0 * 255.0 / (0.5 / (576.0 * 324.0)))));
  EXPECT_EQ(to_db(1.0, limit), limit);
}

TEST(Decibels, FollowsTheFormula) {
  for (double s : {0.0, 0.5, 0.9, 0.99, 0.999999, -0.5}) {
    EXPECT_EQ(to_db(s), -10.0 * std::log10(1.0 - s));
  }
  EXPECT_EQ(to_db(0.99, 15.0), 15.0);
}

TEST(Decibels, ScoresAboveOneFollowLibvmafMin) {
  // 1 - score < 0 gives NaN; libvmaf's MIN(a, b) = a < b ? a : b then yields max_db.
  const double above = std::nextafter(1.0, 2.0);
  EXPECT_EQ(to_db(above, 60.0), 60.0);
  EXPECT_EQ(to_db(above), INFINITY);
}

TEST(Decibels, LimitGrowsWithDepthAndSize) {
  EXPECT_LT(clip_db_limit(255, 16, 16), clip_db_limit(1023, 16, 16));
  EXPECT_LT(clip_db_limit(255, 16, 16), clip_db_limit(255, 1920, 1080));
  EXPECT_EQ(clip_db_limit(65535, 1, 1), std::ceil(10.0 * std::log10(65535.0 * 65535.0 / 0.5)));
}

}  // namespace
}  // namespace exactvq::ssim
