// float_ssim and float_ms_ssim on seeded random clips against the libvmaf
// binary (plain C, VMAF_JSON_FULL_PRECISION=1: every value as %.17g): every
// output bit for bit, 8, 10, 12 and 16 bits, sizes from the 11x11 window and
// MS-SSIM's 176 up to automatic downscaling (scale 2 and 3), explicit scales,
// enable_lcs, enable_db and clip_db. Skipped, saying so, where the binary is absent.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "core/error.h"
#include "libvmaf_vmaf_vectors.h"
#include "metrics/float_ssim/float_ssim_feature.h"
#include "metrics/float_ssim/reference.h"
#include "metrics/vif/vif_clips.h"

namespace exactvq::float_ssim {
namespace {

namespace fs = std::filesystem;
using testing_vectors::same_bits;

struct Case {
  int w, h, bitdepth;
  std::string ssim;     // float_ssim's spec
  std::string ms_ssim;  // float_ms_ssim's, or empty where the picture is under 176
  bool inverted =
      false;  // the distorted picture is the reference's negative (negative structure terms)
};

// The clip with each distorted picture replaced by the reference's negative, files rewritten.
void invert(vif_testing::Clip& clip) {
  const VideoFormat& f = clip.format;
  for (size_t i = 0; i < clip.ref_pics.size(); ++i) {
    const size_t n = size_t(f.width) * size_t(f.height);
    std::vector<uint16_t> luma(n);
    for (size_t k = 0; k < n; ++k) {
      const uint16_t v =
          f.bitdepth > 8 ? reinterpret_cast<const uint16_t*>(clip.ref_pics[i].planes[0].data())[k]
                         : clip.ref_pics[i].planes[0][k];
      luma[k] = uint16_t(f.max_sample() - v);
    }
    clip.dist_pics[i] = vif_testing::luma_picture(f, luma);
  }
  std::ofstream(clip.dist, std::ios::binary)
      << vif_testing::file_bytes(f, clip.dist_pics, f.bitdepth < 16);
}

// libvmaf's per-frame metrics for several features at once, plain C, full precision.
std::vector<nlohmann::ordered_json> libvmaf_frames(const vif_testing::Clip& clip,
                                                   const std::vector<std::string>& features,
                                                   const fs::path& out) {
  std::string cmd =
      fmt::format("VMAF_JSON_FULL_PRECISION=1 '{}' -r '{}' -d '{}'",
                  testing_vectors::kLibvmafBinary.string(), clip.ref.string(), clip.dist.string());
  for (const std::string& f : features) cmd += fmt::format(" --feature '{}'", f);
  cmd += fmt::format(" --no_prediction --cpumask 0xffffffff --json -o '{}' -q", out.string());
  if (clip.raw.width)
    cmd += fmt::format(" -w {} -h {} -p 444 -b {}", *clip.raw.width, *clip.raw.height,
                       *clip.raw.bitdepth);
  cmd += " >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) return {};
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto report = nlohmann::ordered_json::parse(testing_vectors::signed_zeros_kept(text));
  std::vector<nlohmann::ordered_json> frames;
  for (const auto& f : report.at("frames")) frames.push_back(f.at("metrics"));
  return frames;
}

TEST(FloatSsimOracle, RandomClipsEqualLibvmafBitForBit) {
  if (!fs::exists(testing_vectors::kLibvmafBinary)) {
    std::printf("no libvmaf binary at %s: float_ssim oracle skipped\n",
                testing_vectors::kLibvmafBinary.c_str());
    GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary
                 << ": oracle skipped";
  }
  const Case cases[] = {
      {176, 176, 8, "float_ssim", "float_ms_ssim"},
      {177, 191, 10, "float_ssim=enable_lcs=true", "float_ms_ssim=enable_lcs=true"},
      {181, 176, 12, "float_ssim=scale=1:enable_db=true:clip_db=true",
       "float_ms_ssim=enable_db=true:clip_db=true"},
      {200, 183, 16, "float_ssim=enable_db=true", "float_ms_ssim=enable_db=true:enable_lcs=true"},
      {384, 390, 8, "float_ssim=enable_lcs=true", "float_ms_ssim"},   // automatic scale 2
      {401, 387, 10, "float_ssim=enable_lcs=true", "float_ms_ssim"},  // scale 2, odd sides
      {643, 641, 12, "float_ssim=enable_lcs=true", "float_ms_ssim"},  // scale 3
      {390, 385, 16, "float_ssim", "float_ms_ssim=enable_lcs=true"},  // scale 2, 16 bits
      {97, 45, 8, "float_ssim=scale=3:enable_lcs=true", ""},
      {11, 11, 16, "float_ssim=enable_lcs=true", ""},
      {12, 31, 10, "float_ssim=enable_db=true:clip_db=true", ""},
      {60, 60, 8, "float_ssim=scale=4", ""},
      {63, 65, 12, "float_ssim=scale=5:enable_lcs=true", ""},
      {30, 31, 16, "float_ssim=scale=2:enable_lcs=true", ""},
      {25, 24, 8, "float_ssim=scale=10", ""},
      {16, 10, 10, "float_ssim=enable_lcs=true", ""},  // no window fits: NaN
      {18, 10, 8, "float_ssim=enable_db=true", ""},    // NaN in decibels: +inf (libvmaf's CSV: inf)
      {18, 10, 12, "float_ssim=enable_db=true:clip_db=true",
       ""},  // NaN in decibels, clipped: the ceiling
      {1280, 720, 10, "float_ssim=enable_lcs=true", "float_ms_ssim"},   // automatic scale 3
      {1920, 1080, 8, "float_ssim", "float_ms_ssim=enable_lcs=true"},   // automatic scale 4
      {1024, 1030, 16, "float_ssim=enable_lcs=true", "float_ms_ssim"},  // scale 4, 16 bits
      {200, 180, 8, "float_ssim=enable_lcs=true", "float_ms_ssim=enable_lcs=true",
       true},  // MS-SSIM NaN
      {390, 400, 12, "float_ssim=enable_db=true", "float_ms_ssim=enable_db=true:clip_db=true",
       true},
  };
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "float_ssim_oracle";
  const uint32_t seed = 20261202;
  // The listed cases, then as many drawn from the seed: sizes from 11 to 420, every depth and
  // option.
  std::vector<Case> all(std::begin(cases), std::end(cases));
  std::mt19937 rng(seed);
  const int depths[] = {8, 10, 12, 16};
  const char* const ssim_options[] = {"",
                                      ":enable_lcs=true",
                                      ":enable_db=true:clip_db=true",
                                      ":scale=1",
                                      ":scale=2:enable_lcs=true",
                                      ":scale=3",
                                      ":enable_db=true"};
  const char* const ms_options[] = {"", ":enable_lcs=true", ":enable_db=true",
                                    ":enable_db=true:clip_db=true"};
  for (size_t k = 0; k < 16; ++k) {
    // "name" or "name=k=v:k=v" from options written ":k=v:k=v".
    const auto spec = [](const char* name, const std::string& options) {
      return options.empty() ? std::string(name) : fmt::format("{}={}", name, options.substr(1));
    };
    Case c{11 + int(rng() % 410), 11 + int(rng() % 410), depths[rng() % 4], "", ""};
    c.ssim = spec("float_ssim", ssim_options[rng() % std::size(ssim_options)]);
    const std::string ms = spec("float_ms_ssim", ms_options[rng() % std::size(ms_options)]);
    if (c.w >= kMsSsimMinSide && c.h >= kMsSsimMinSide) c.ms_ssim = ms;
    c.inverted = rng() % 5 == 0;
    all.push_back(c);
  }
  int compared = 0, differing = 0;
  for (size_t k = 0; k < all.size(); ++k) {
    const Case& c = all[k];
    const uint32_t clip_seed = seed + uint32_t(k);
    vif_testing::Clip clip =
        vif_testing::write_clip(dir / std::to_string(k), c.w, c.h, c.bitdepth, 2, clip_seed);
    if (c.inverted) invert(clip);
    const SsimOptions so = parse_ssim_options(parse_feature_spec(c.ssim));
    std::vector<std::string> features{c.ssim}, names = output_names(so);
    MsSsimOptions mo;
    if (!c.ms_ssim.empty()) {
      features.push_back(c.ms_ssim);
      mo = parse_ms_ssim_options(parse_feature_spec(c.ms_ssim));
      for (const std::string& n : output_names(mo)) names.push_back(n);
    }
    const auto want = libvmaf_frames(clip, features, dir / fmt::format("{}.json", k));
    ASSERT_EQ(want.size(), clip.ref_pics.size())
        << "libvmaf failed on case " << k << " (seed " << clip_seed << ")";
    for (size_t i = 0; i < want.size(); ++i) {
      std::set<std::string> keys;
      for (const auto& [key, value] : want[i].items()) keys.insert(key);
      EXPECT_EQ(keys, std::set<std::string>(names.begin(), names.end())) << "case " << k;
      const PlaneView ref = clip.ref_pics[i].plane(0), dist = clip.dist_pics[i].plane(0);
      const SsimScores s = float_ssim_reference(ref, dist, c.bitdepth, so);
      std::vector<double> mine{s.ssim};
      if (so.enable_lcs) mine.insert(mine.end(), {s.l, s.c, s.s});
      if (!c.ms_ssim.empty()) {
        const MsSsimScores m = float_ms_ssim_reference(ref, dist, c.bitdepth, mo);
        mine.push_back(m.ms_ssim);
        if (mo.enable_lcs)
          for (const auto* part : {&m.l, &m.c, &m.s})
            mine.insert(mine.end(), part->begin(), part->end());
      }
      ASSERT_EQ(mine.size(), names.size());
      for (size_t n = 0; n < names.size(); ++n, ++compared) {
        if (!want[i].contains(names[n])) continue;
        const auto& v = want[i].at(names[n]);
        // libvmaf's JSON writes every non-finite value null (its CSV shows nan or inf).
        const bool same =
            v.is_null() ? !std::isfinite(mine[n]) : same_bits(mine[n], v.get<double>());
        differing += !same;
        EXPECT_TRUE(same) << c.w << "x" << c.h << " " << c.bitdepth << "-bit " << features[0]
                          << (c.ms_ssim.empty() ? "" : " " + features.back())
                          << (c.inverted ? " inverted" : "") << " seed " << clip_seed << " frame "
                          << i << " " << names[n] << ": " << mine[n] << " vs libvmaf " << v;
      }
    }
  }
  std::printf("float_ssim oracle: %d values compared, %d differing (seed %u)\n", compared,
              differing, seed);
  EXPECT_EQ(differing, 0);
}

// The size limit is libvmaf's: it scores 176 in both sides, fails 175 in either; exactvq refuses
// the same.
TEST(FloatSsimOracle, MsSsimSizeLimitIsLibvmafs) {
  if (!fs::exists(testing_vectors::kLibvmafBinary))
    GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary
                 << ": oracle skipped";
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "float_ssim_limit";
  for (const auto& [w, h] :
       {std::pair{176, 176}, std::pair{175, 300}, std::pair{300, 175}, std::pair{176, 177}}) {
    const vif_testing::Clip clip =
        vif_testing::write_clip(dir / fmt::format("{}x{}", w, h), w, h, 8, 1, 5);
    const bool libvmaf_scores =
        !libvmaf_frames(clip, {"float_ms_ssim"}, dir / fmt::format("{}x{}.json", w, h)).empty();
    bool refused = false;
    try {
      check_ms_ssim_input(w, h, 8, "t");
    } catch (const InputError&) {
      refused = true;
    }
    EXPECT_EQ(libvmaf_scores, !refused) << w << "x" << h;
  }
}

}  // namespace
}  // namespace exactvq::float_ssim
