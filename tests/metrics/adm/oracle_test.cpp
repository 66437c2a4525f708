// adm on seeded random clips against the libvmaf binary (plain C): every
// output, debug ones included, bit for bit, for sizes from the smallest adm
// takes (33x33) to odd and larger ones, 8, 10, 12 and 16 bits (the depths
// libvmaf's CLI reads), and each option.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "adm_clips.h"
#include "core/error.h"
#include "metrics/adm/adm_feature.h"
#include "metrics/adm/cpu/adm_simd.h"
#include "metrics/adm/reference.h"

namespace exactvq::adm {
namespace {

namespace fs = std::filesystem;
using testing_vectors::same_bits;

std::vector<double> all_values(const AdmScores& s) {
  return {s.adm2,         s.aim,          s.adm3,         s.scale[0],     s.scale[1],
          s.scale[2],     s.scale[3],     s.adm,          s.num,          s.den,
          s.num_scale[0], s.den_scale[0], s.num_scale[1], s.den_scale[1], s.num_scale[2],
          s.den_scale[2], s.num_scale[3], s.den_scale[3]};
}

struct Case {
  int w, h, bitdepth;
  std::string options;  // libvmaf's option names (its CLI ignores the aliases), after debug=true
  int frames = 2;
  adm_testing::Content content = adm_testing::Content::kNatural;
};

// Compares every output of every frame of each case with libvmaf's; counts into compared/differing.
void compare_cases(const std::vector<Case>& cases, const fs::path& dir, uint32_t seed,
                   int& compared, int& differing) {
  for (size_t k = 0; k < cases.size(); ++k) {
    const Case& c = cases[k];
    const uint32_t clip_seed = seed + uint32_t(k);
    const adm_testing::Clip clip = adm_testing::make_clip(
        dir / std::to_string(k), c.w, c.h, c.bitdepth, c.frames, clip_seed, c.content);
    const std::string spec = "adm=debug=true" + c.options;
    const AdmOptions o = parse_adm_options(parse_feature_spec(spec));
    const std::vector<std::string> names = adm_output_names(o);
    const auto want = adm_testing::libvmaf_metrics(clip, spec, dir / fmt::format("{}.json", k));
    ASSERT_EQ(want.size(), clip.ref_pics.size())
        << "libvmaf failed on case " << k << " (seed " << clip_seed << ")";
    for (size_t i = 0; i < want.size(); ++i) {
      std::vector<std::string> keys;  // libvmaf's keys, in its order, are ours
      for (const auto& [key, value] : want[i].items()) keys.push_back(key);
      EXPECT_EQ(keys, names) << "case " << k;
      const std::vector<double> mine = all_values(
          adm_reference(clip.ref_pics[i].plane(0), clip.dist_pics[i].plane(0), c.bitdepth, o));
      // The feature's SIMD rows (cpu/adm_simd.h) must give the same values.
      const std::vector<double> simd =
          all_values(adm_scores(clip.ref_pics[i].plane(0), clip.dist_pics[i].plane(0), c.bitdepth,
                                o, cpu::simd_row_kernels()));
      for (size_t n = 0; n < names.size(); ++n, ++compared) {
        const auto& v = want[i].at(names[n]);
        const bool same = v.is_null() ? std::isnan(mine[n]) : same_bits(mine[n], v.get<double>());
        const bool simd_same =
            v.is_null() ? std::isnan(simd[n]) : same_bits(simd[n], v.get<double>());
        if (!same || !simd_same) ++differing;
        EXPECT_TRUE(simd_same) << c.w << "x" << c.h << " " << c.bitdepth << "-bit " << spec
                               << " seed " << clip_seed << " frame " << i << " " << names[n]
                               << ": SIMD rows " << fmt::format("{:.17g}", simd[n])
                               << " vs libvmaf " << v;
        EXPECT_TRUE(same) << c.w << "x" << c.h << " " << c.bitdepth << "-bit " << spec << " seed "
                          << clip_seed << " frame " << i << " " << names[n] << ": "
                          << fmt::format("{:.17g}", mine[n]) << " vs libvmaf " << v;
      }
    }
    fs::remove_all(dir / std::to_string(k));
  }
}

TEST(AdmOracle, RandomClipsEqualLibvmafBitForBit) {
  if (!fs::exists(testing_vectors::kLibvmafBinary))
    GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary
                 << ": oracle skipped";
  const std::vector<Case> cases = {
      {33, 33, 8, ""},
      {34, 33, 16, ":adm_enhn_gain_limit=1"},
      {33, 35, 10, ""},
      {35, 64, 12, ":adm_skip_scale0=true"},
      {40, 40, 8, ":adm_enhn_gain_limit=1.5:adm_min_val=0.9"},
      {47, 33, 16, ""},
      {64, 36, 10, ":adm_enhn_gain_limit=1"},
      {97, 41, 12, ":adm_norm_view_dist=4"},
      {100, 61, 8, ":adm_ref_display_height=2160:adm_enhn_gain_limit=1"},
      {61, 100, 16, ":adm_norm_view_dist=24:adm_ref_display_height=4320"},
      {50, 70, 12, ":adm_norm_view_dist=6:adm_ref_display_height=540"},
      {70, 40, 10, ":adm_noise_weight=0:adm_dlm_weight=0.8"},
      {45, 45, 16, ":adm_skip_aim=true:adm_min_val=0.5"},
      {60, 60, 8, ":adm_csf_scale=2:adm_csf_diag_scale=0.5:adm_noise_weight=3"},
      {127, 65, 10, ":adm_enhn_gain_limit=2.5"},
      {33, 200, 8, ":adm_skip_scale0=true:adm_enhn_gain_limit=1"},
      {200, 33, 12, ""},
      {300, 170, 16, ":adm_enhn_gain_limit=1"},
      {321, 181, 8, ""},
      {1920, 1080, 16, ":adm_enhn_gain_limit=1", 1},
      {3840, 2160, 8, "", 1},
  };
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "adm_oracle";
  const uint32_t seed = 20261202;
  int compared = 0, differing = 0;
  compare_cases(cases, dir, seed, compared, differing);
  std::printf("adm oracle: %d values compared, %d differing (seed %u)\n", compared, differing,
              seed);
}

// Seeded random sizes (33 to 300 a side), depths and options.
TEST(AdmOracle, RandomSizesDepthsAndOptions) {
  if (!fs::exists(testing_vectors::kLibvmafBinary))
    GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary
                 << ": oracle skipped";
  const uint32_t seed = 4242;
  std::mt19937 rng(seed);
  const int depths[] = {8, 10, 12, 16};
  const char* const options[] = {"",
                                 ":adm_enhn_gain_limit=1",
                                 ":adm_enhn_gain_limit=1.25",
                                 ":adm_skip_scale0=true",
                                 ":adm_norm_view_dist=3.7",
                                 ":adm_ref_display_height=1440",
                                 ":adm_noise_weight=0.5:adm_dlm_weight=0.3",
                                 ":adm_min_val=0.95"};
  std::vector<Case> cases;
  for (int k = 0; k < 24; ++k) {
    Case c{33 + int(rng() % 268), 33 + int(rng() % 268), depths[rng() % 4], options[rng() % 8]};
    if (k < 6) c.w = 33 + int(rng() % 8);  // the smallest sizes, where the edge rules all apply
    if (k % 4 == 1) c.content = adm_testing::Content::kCheckerboard;
    if (k % 4 == 3) c.content = adm_testing::Content::kSaturatedNoise;
    cases.push_back(c);
  }
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "adm_oracle_random";
  int compared = 0, differing = 0;
  compare_cases(cases, dir, seed, compared, differing);
  std::printf("adm oracle, random sizes: %d values compared, %d differing (seed %u)\n", compared,
              differing, seed);
}

// The contrast sensitivity functions adm_csf_mode 1 (Barten's), 2 and 3 (the
// blended tables, at each of their geometries that libvmaf scores: not 480
// rows, nor 720 at 3 H, below 3 * 1080), with the options that scale or
// rename them.
TEST(AdmOracle, CsfModesEqualLibvmafBitForBit) {
  if (!fs::exists(testing_vectors::kLibvmafBinary))
    GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary
                 << ": oracle skipped";
  const std::vector<Case> cases = {
      {33, 33, 8, ":adm_csf_mode=1"},
      {64, 48, 10, ":adm_csf_mode=1:adm_enhn_gain_limit=1"},
      {97, 41, 12, ":adm_csf_mode=1:adm_csf_scale=3.5:adm_csf_diag_scale=0.25"},
      {120, 90, 16, ":adm_csf_mode=1:adm_csf_scale=50:adm_csf_diag_scale=50"},
      {80, 60, 8, ":adm_csf_mode=1:adm_csf_scale=0:adm_noise_weight=0"},
      {100, 61, 8, ":adm_csf_mode=1:adm_norm_view_dist=5"},
      {61, 100, 10, ":adm_csf_mode=1:adm_norm_view_dist=24:adm_ref_display_height=4320"},
      {70, 50, 12, ":adm_csf_mode=1:adm_norm_view_dist=3.7:adm_ref_display_height=1440"},
      {90, 70, 8,
       ":adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_noise_weight=0.02:"
       "adm_min_val=0.5"},
      {90, 70, 10,
       ":adm_csf_mode=2:adm_norm_view_dist=5:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:"
       "adm_noise_weight=0.02:adm_min_val=0.5"},
      {75, 45, 12, ":adm_csf_mode=2:adm_norm_view_dist=1.5:adm_ref_display_height=2160"},
      {45, 75, 16, ":adm_csf_mode=2:adm_norm_view_dist=3:adm_ref_display_height=2160"},
      {50, 50, 8, ":adm_csf_mode=2:adm_norm_view_dist=5:adm_ref_display_height=2160"},
      {66, 38, 10, ":adm_csf_mode=2:adm_norm_view_dist=5:adm_ref_display_height=720"},
      {77, 55, 12, ":adm_csf_mode=2:adm_csf_scale=2:adm_skip_scale0=true"},
      {90, 70, 8, ":adm_csf_mode=3"},
      {90, 70, 16, ":adm_csf_mode=3:adm_norm_view_dist=5:adm_enhn_gain_limit=1"},
      {75, 45, 10, ":adm_csf_mode=3:adm_norm_view_dist=1.5:adm_ref_display_height=2160"},
      {45, 75, 12, ":adm_csf_mode=3:adm_norm_view_dist=3:adm_ref_display_height=2160"},
      {50, 50, 8, ":adm_csf_mode=3:adm_norm_view_dist=5:adm_ref_display_height=2160"},
      {66, 38, 10, ":adm_csf_mode=3:adm_norm_view_dist=5:adm_ref_display_height=720"},
      {38, 66, 16, ":adm_csf_mode=3:adm_norm_view_dist=5:adm_csf_scale=4"},
      {321, 181, 8, ":adm_csf_mode=2:adm_norm_view_dist=5:adm_ref_display_height=720"},
      {300, 170, 10, ":adm_csf_mode=3:adm_norm_view_dist=3:adm_ref_display_height=2160"},
      {200, 120, 12, ":adm_csf_mode=1:adm_enhn_gain_limit=1.25", 3,
       adm_testing::Content::kSaturatedNoise},
      {130, 80, 8, ":adm_csf_mode=2", 2, adm_testing::Content::kCheckerboard},
      {1920, 1080, 10,
       ":adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_noise_weight=0.02:"
       "adm_min_val=0.5",
       1},
  };
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "adm_oracle_csf";
  const uint32_t seed = 20261205;
  int compared = 0, differing = 0;
  compare_cases(cases, dir, seed, compared, differing);
  std::printf("adm oracle, CSF modes 1..3: %d values compared, %d differing (seed %u)\n", compared,
              differing, seed);
}

// libvmaf has no defined value below 33x33 (from 17 to 32 samples a side it
// reads outside its buffers, up to 16 it crashes): exactvq refuses those sizes.
TEST(AdmOracle, LibvmafCrashesWhereExactvqRefuses) {
  if (!fs::exists(testing_vectors::kLibvmafBinary))
    GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary
                 << ": oracle skipped";
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "adm_oracle_small";
  const adm_testing::Clip clip = adm_testing::make_clip(dir, 16, 40, 8, 1, 7);
  EXPECT_TRUE(adm_testing::libvmaf_metrics(clip, "adm", dir / "out.json").empty());
  EXPECT_THROW(
      adm_reference(clip.ref_pics[0].plane(0), clip.dist_pics[0].plane(0), 8, AdmOptions{}),
      InputError);
}

}  // namespace
}  // namespace exactvq::adm
