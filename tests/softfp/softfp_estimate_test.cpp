// softfp_fast_div with the worst fp32 reciprocal it allows (relative error
// 2^-16, either side; a device's 1.0f / v is far closer), against native
// binary64: its digits are corrected once, so the bound is what makes it exact.
// This translation unit's softfp functions (static inline) use the perturbed
// estimate; the rest of softfp_tests uses the plain one.
#include <cmath>

namespace {
float g_estimate_error = 0;  // relative, set by each test
float perturbed_reciprocal(float v) { return (1.0f / v) * (1.0f + g_estimate_error); }
}  // namespace
#define SOFTFP_RECIPROCAL_ESTIMATE(v) perturbed_reciprocal(v)

#include <gtest/gtest.h>

#include <random>

#include <fmt/format.h>

#include "softfp_test_util.h"

namespace exactvq::softfp_test {
namespace {

TEST(SoftfpFastEstimate, WorstReciprocalEstimateStillExact) {
  std::mt19937_64 rng(seed() + 7);
  const uint64_t n = random_pair_count() / 10;
  for (const float error : {0x1p-16f, -0x1p-16f}) {
    g_estimate_error = error;
    Compare cmp(fmt::format("fast divide, fp32 reciprocal off by {:a}", error));
    for (uint64_t t = 0; t < n; ++t) {
      const double a =
          std::ldexp(static_cast<double>(random_significand(rng)), int(rng() % 40) - 60);
      const double b =
          std::ldexp(static_cast<double>(random_significand(rng)), int(rng() % 40) - 60);
      const double want = a / b;
      const softfp got = softfp_fast_div(soft(a), soft(b));
      cmp.check(softfp_to_bits(got) == bits_of(want), [&] {
        return fmt::format("{:a} / {:a}: want {:a}, got {:a}", a, b, want, native(got));
      });
    }
  }
  g_estimate_error = 0;
}

}  // namespace
}  // namespace exactvq::softfp_test
