// vif on seeded random clips against the libvmaf binary (plain C): every
// output, debug ones included, bit for bit, for sizes from the smallest vif
// scores to odd and even larger ones, 8 to 16 bits, and each option.
#include <gtest/gtest.h>

#include <cmath>

#include "libvmaf_vmaf_vectors.h"
#include "metrics/vif/cpu/vif_simd.h"
#include "metrics/vif/reference.h"
#include "metrics/vif/vif_feature.h"
#include "vif_clips.h"

namespace exactvq::vif {
namespace {

namespace fs = std::filesystem;
using testing_vectors::same_bits;

std::vector<double> all_values(const VifScores& s) {
  return {s.scale[0],     s.scale[1],     s.scale[2],     s.scale[3],     s.vif,
          s.num,          s.den,          s.num_scale[0], s.den_scale[0], s.num_scale[1],
          s.den_scale[1], s.num_scale[2], s.den_scale[2], s.num_scale[3], s.den_scale[3]};
}

struct Case {
  int w, h, bitdepth;
  const char* options;  // after debug=true
};

TEST(VifOracle, RandomClipsEqualLibvmafBitForBit) {
  if (!fs::exists(testing_vectors::kLibvmafBinary))
    GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary
                 << ": oracle skipped";
  const Case cases[] = {
      {2, 8, 8, ""},
      {3, 9, 10, ""},
      {4, 8, 8, ":vif_skip_scale0=true"},
      {5, 11, 12, ":vif_enhn_gain_limit=1"},
      {7, 16, 16, ""},
      {8, 8, 8, ":vif_enhn_gain_limit=1"},
      {9, 17, 10, ""},
      {15, 15, 12, ":vif_enhn_gain_limit=2.5"},
      {16, 16, 16, ":vif_enhn_gain_limit=1"},
      {17, 9, 8, ""},
      {18, 10, 16, ""},
      {31, 23, 8, ":vif_skip_scale0=true:vif_enhn_gain_limit=1"},
      {33, 19, 10, ":vif_skip_scale0=true"},
      {64, 36, 12, ""},
      {100, 61, 8, ":vif_enhn_gain_limit=1.5"},
      {96, 54, 16, ":vif_enhn_gain_limit=1"},
      {127, 65, 10, ":vif_enhn_gain_limit=1"},
      {41, 200, 12, ""},
      {200, 9, 10, ""},
      {66, 34, 16, ":vif_enhn_gain_limit=4"},
  };
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "vif_oracle";
  const uint32_t seed = 20261201;
  // The listed cases, then as many drawn from the seed.
  std::vector<Case> all(std::begin(cases), std::end(cases));
  std::mt19937 rng(seed);
  const char* const drawn_options[] = {"", ":vif_enhn_gain_limit=1", ":vif_enhn_gain_limit=1.75",
                                       ":vif_skip_scale0=true"};
  const int depths[] = {8, 10, 12, 16};
  for (size_t k = 0; k < std::size(cases); ++k)
    all.push_back({4 + int(rng() % 90), kMinHeight + int(rng() % 70), depths[rng() % 4],
                   drawn_options[rng() % 4]});
  int compared = 0, differing = 0;
  for (size_t k = 0; k < all.size(); ++k) {
    const Case& c = all[k];
    const uint32_t clip_seed = seed + uint32_t(k);
    const vif_testing::Clip clip =
        vif_testing::write_clip(dir / std::to_string(k), c.w, c.h, c.bitdepth, 3, clip_seed);
    const std::string spec = std::string("vif=debug=true") + c.options;
    const VifOptions o = parse_vif_options(parse_feature_spec(spec));
    const std::vector<std::string> names = output_names(o);
    const auto want = vif_testing::libvmaf_frames(clip.ref, clip.dist, clip.raw, spec,
                                                  dir / fmt::format("{}.json", k));
    ASSERT_EQ(want.size(), clip.ref_pics.size())
        << "libvmaf failed on case " << k << " (seed " << clip_seed << ")";
    for (size_t i = 0; i < want.size(); ++i) {
      // libvmaf's keys, in its order, are exactly ours.
      std::vector<std::string> keys;
      for (const auto& [key, value] : want[i].items()) keys.push_back(key);
      EXPECT_EQ(keys, names) << "case " << k;
      // The reference and the SIMD path (cpu/vif_simd.h) alike.
      const PlaneView ref = clip.ref_pics[i].plane(0), dist = clip.dist_pics[i].plane(0);
      for (const auto& [engine, mine] :
           {std::pair{"reference", all_values(vif_reference(ref, dist, c.bitdepth, o))},
            std::pair{"simd", all_values(cpu::vif_simd(ref, dist, c.bitdepth, o))}})
        for (size_t n = 0; n < names.size(); ++n, ++compared) {
          const auto& v = want[i].at(names[n]);
          const bool same = v.is_null() ? std::isnan(mine[n]) : same_bits(mine[n], v.get<double>());
          if (!same) ++differing;
          EXPECT_TRUE(same) << engine << ": " << c.w << "x" << c.h << " " << c.bitdepth << "-bit "
                            << spec << " seed " << clip_seed << " frame " << i << " " << names[n]
                            << ": " << mine[n] << " vs libvmaf " << v;
        }
    }
  }
  std::printf("vif oracle: %d values compared, %d differing (seed %u)\n", compared, differing,
              seed);
}

}  // namespace
}  // namespace exactvq::vif
