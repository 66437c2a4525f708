// softfp's ordered less-than and its conversions toward zero (x86-64's rule out
// of range) against the host's binary64, and vif's softfp pixel terms
// (metrics/vif/softfp_statistic.h) against the native ones (native_statistic.h)
// on seeded sigma triples and edge triples: all four sums equal.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "softfp_test_util.h"
#include "metrics/vif/log2_table.h"
#include "metrics/vif/native_statistic.h"
#include "metrics/vif/softfp_statistic.h"

namespace exactvq::softfp_test {
namespace {

// Finite, NaN-free doubles of the kinds conversions and comparisons meet:
// exact integers, halves, near the int32 and int64 bounds, huge, tiny,
// subnormal, zeros, either sign.
double random_value(std::mt19937_64& rng) {
  const double sign = rng() % 2 ? -1.0 : 1.0;
  switch (rng() % 10) {
    case 0:
      return sign * double(int64_t(rng() % 5000));  // small integers
    case 1:
      return sign * (double(int64_t(rng() % 5000)) + 0.5);  // halves
    case 2:
      return sign * (2147483648.0 + double(int64_t(rng() % 9)) - 4.0 + double(rng() % 4) * 0.25);
    case 3:
      return sign * std::ldexp(1.0, 63) + sign * double(int64_t(rng() % 3)) * 2048.0 -
             sign * 2048.0;
    case 4:
      return sign * std::ldexp(double(rng() >> 11), int(rng() % 40));  // up to 2^93
    case 5:
      return sign * std::ldexp(double(rng() >> 11), -int(rng() % 80));  // fractions, tiny
    case 6:
      return double_of((rng() & ((uint64_t{1} << 52) - 1)) | (rng() % 2 ? uint64_t{1} << 63 : 0));
    case 7:
      return sign * 0.0;
    case 8:
      return sign * std::ldexp(double(rng() >> 11), 900 + int(rng() % 70));  // huge
    default:
      return double_of(rng() % 0x7FEFFFFFFFFFFFFFull | (rng() % 2 ? uint64_t{1} << 63 : 0));
  }
}

TEST(SoftfpVif, LessEqualsNative) {
  std::mt19937_64 rng(seed());
  Compare c("softfp_less");
  const auto one = [&](double a, double b) {
    c.check(softfp_less(soft(a), soft(b)) == (a < b),
            [&] { return fmt::format("{:a} < {:a}", a, b); });
  };
  for (int i = 0; i < 2'000'000; ++i) {
    const double a = random_value(rng);
    const double b = rng() % 4 == 0 ? a : rng() % 4 == 0 ? -a : random_value(rng);
    one(a, b);
    one(b, a);
  }
  for (const double a :
       {0.0, -0.0, 1.0, -1.0, 0x1p-1074, -0x1p-1074, 100.0, 0x1.fffffffffffffp1023})
    for (const double b :
         {0.0, -0.0, 1.0, -1.0, 0x1p-1074, -0x1p-1074, 100.0, -0x1.fffffffffffffp1023})
      one(a, b);
}

TEST(SoftfpVif, TruncationsEqualX86) {
  std::mt19937_64 rng(seed() + 1);
  Compare c32("softfp_truncate_i32"), c64("softfp_truncate_i64");
  const auto one = [&](double v) {
    c32.check(softfp_truncate_i32(soft(v)) == vif::truncate_to_int32(v), [&] {
      return fmt::format("{:a}: want {}, got {}", v, vif::truncate_to_int32(v),
                         softfp_truncate_i32(soft(v)));
    });
    c64.check(softfp_truncate_i64(soft(v)) == vif::truncate_to_int64(v), [&] {
      return fmt::format("{:a}: want {}, got {}", v, vif::truncate_to_int64(v),
                         softfp_truncate_i64(soft(v)));
    });
  };
  for (int i = 0; i < 4'000'000; ++i) one(random_value(rng));
  for (const double v : {0.0,
                         -0.0,
                         0.5,
                         -0.5,
                         0.99999999999999989,
                         -0.99999999999999989,
                         1.0,
                         -1.0,
                         2147483647.0,
                         2147483647.5,
                         2147483648.0,
                         -2147483648.0,
                         -2147483648.5,
                         -2147483648.9999998,
                         -2147483649.0,
                         4294967296.0,
                         -4294967296.0,
                         0x1p62,
                         0x1.fffffffffffffp62,
                         0x1p63,
                         -0x1p63,
                         -0x1.0000000000001p63,
                         0x1p64,
                         -0x1p64,
                         0x1p1023,
                         -0x1p1023,
                         0x1p-1074,
                         -0x1p-1022,
                         0x1.fffffffffffffp52,
                         0x1p53 + 2.0})
    one(v);
}

// Both pixel-term functions on one sigma triple; reports the first mismatches.
struct TwinCheck {
  Compare compare{"vif softfp pixel terms"};
  double eps = double_of(EXACTVQ_VIF_EPS_BITS);
  softfp soft_eps = softfp_from_bits(EXACTVQ_VIF_EPS_BITS);

  // Triples through the gain steps; of them, gains at the limit and residuals
  // outside int32 (the conversion's out-of-range value).
  uint64_t gains = 0, limited = 0, out_of_range = 0;

  void operator()(VifSigmas s, double limit) {
    if (vif_takes_log(s) && vif_takes_gain(s)) {
      ++gains;
      const double g = double(s.sigma12) / (double(s.sigma1_sq) + eps);
      limited += !(g < limit);
      out_of_range +=
          vif::truncate_to_int32(double(s.sigma2_sq) - g * double(s.sigma12)) == INT32_MIN;
    }
    VifSums want = {0, 0, 0, 0}, got = {0, 0, 0, 0};
    vif::add_pixel_terms(s, eps, limit, vif::kLog2Table.data(), &want);
    vif_softfp_add_pixel_terms(s, soft_eps, soft(limit), vif::kLog2Table.data(), &got);
    compare.check(want.num_log == got.num_log && want.den_log == got.den_log &&
                      want.num_non_log == got.num_non_log && want.den_non_log == got.den_non_log,
                  [&] {
                    return fmt::format(
                        "sigmas ({}, {}, {}) limit {}: want {} {} {} {}, got {} {} {} {}",
                        s.sigma1_sq, s.sigma2_sq, s.sigma12, limit, want.num_log, want.den_log,
                        want.num_non_log, want.den_non_log, got.num_log, got.den_log,
                        got.num_non_log, got.den_non_log);
                  });
  }
};

int32_t random_sigma(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0:
      return int32_t(uint32_t(rng()));  // any 32 bits
    case 1:
      return int32_t(rng() % (uint64_t{1} << 31));  // non-negative
    case 2:
      return int32_t(131072 + int64_t(rng() % 4096) - 2048);  // near the noise variance
    case 3:
      return int32_t(rng() % (uint64_t{1} << (1 + rng() % 30)));  // every magnitude
    case 4:
      return int32_t(INT32_MAX - int32_t(rng() % 1024));  // near the top
    default:
      return int32_t(rng() % 65536) - 1024;  // small, some negative
  }
}

TEST(SoftfpVif, PixelTermsEqualNative) {
  std::mt19937_64 rng(seed() + 2);
  TwinCheck twin;
  const double limits[] = {100.0, 1.0, 7.25};
  const uint64_t n = std::max<uint64_t>(random_pair_count() / 3, 1000);
  for (uint64_t i = 0; i < n; ++i) {
    VifSigmas s;
    s.sigma1_sq = random_sigma(rng);
    s.sigma2_sq = std::max(0, random_sigma(rng));  // vif_sigmas clamps it
    s.sigma12 = random_sigma(rng);
    // Often a correlated triple: sigma12 near sqrt(s1 * s2), the gain near its limit.
    if (rng() % 3 == 0 && s.sigma1_sq > 0) {
      const double g = double(rng() % 20000) / 100.0;
      s.sigma12 = int32_t(std::min(2147483647.0, g * s.sigma1_sq / 65536.0 + double(rng() % 4096)));
      // sigma2_sq near g * sigma12: the residual near 0, either sign.
      const double gain = double(s.sigma12) / double(s.sigma1_sq);
      s.sigma2_sq = int32_t(
          std::clamp(std::floor(gain * s.sigma12) + double(int(rng() % 5) - 2), 0.0, 2147483647.0));
    }
    twin(s, limits[i % 3]);
    if (i % 7 == 0) twin(s, 1.0 + double(rng() % 99000) / 1000.0);
  }
  const int32_t edges[] = {INT32_MIN,     -1,       0, 1, 131071, 131072, 131073, 1 << 20,
                           INT32_MAX - 1, INT32_MAX};
  for (const int32_t a : edges)
    for (const int32_t b : edges)
      for (const int32_t c : edges)
        for (const double limit : {100.0, 1.0}) twin(VifSigmas{a, std::max(0, b), c}, limit);
  EXPECT_GT(twin.compare.compared(), 1'000'000u);
  std::printf(
      "[ softfp   ] vif: %llu through the gain steps, %llu at the gain limit, %llu residuals out "
      "of int32\n",
      static_cast<unsigned long long>(twin.gains), static_cast<unsigned long long>(twin.limited),
      static_cast<unsigned long long>(twin.out_of_range));
  EXPECT_GT(twin.gains, 100'000u);
  EXPECT_GT(twin.limited, 1'000u);
  EXPECT_GT(twin.out_of_range, 1'000u);
}

}  // namespace
}  // namespace exactvq::softfp_test
