// cambi on seeded banded clips against the libvmaf binary (plain C,
// VMAF_JSON_FULL_PRECISION=1: every value as %.17g): every key, every frame,
// bit for bit, at 8, 10, 12 and 16 bits, from the smallest size libvmaf takes
// to 1080p, with every option (the encoding and source sizes, which resample
// the picture; window_size, topk, tvi_threshold, the EOTFs, max_log_contrast,
// the visibility threshold, enc_bitdepth, the cap, the high-resolution
// speed-up) alone and together, and full_ref. Then the sizes libvmaf refuses,
// which exactvq refuses too. Skipped, saying so, where the binary is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "cambi_testing.h"
#include "core/error.h"
#include "core/thread_pool.h"
#include "metrics/cambi/cambi_feature.h"
#include "metrics/cambi/setup.h"
#include "metrics/vif/vif_clips.h"

namespace exactvq::cambi {
namespace {

namespace fs = std::filesystem;
using testing_vectors::same_bits;

// Banded pictures: a slow gradient (a few codes over the picture) quantised
// to steps of `step` codes, with textured rectangles; the distorted picture
// quantises coarser or adds noise, so both band and cambi's values are not 0.
vif_testing::Clip write_banded_clip(const fs::path& dir, int w, int h, int bitdepth, int frames,
                                    uint32_t seed) {
  vif_testing::Clip c;
  c.format = VideoFormat{w, h, ChromaFormat::k444, bitdepth};
  std::mt19937 rng(seed);
  const int peak = int(c.format.max_sample());
  const int unit = 1 << std::max(0, bitdepth - 10);  // one 10-bit code
  for (int f = 0; f < frames; ++f) {
    const int low = int(rng() % uint32_t(peak / 2)) + peak / 8;
    const int span = (4 + int(rng() % 24)) * unit * (bitdepth == 8 ? 1 : 2);
    const double ax = double(rng() % 100) / 100.0, ay = 1.0 - ax;
    const int ref_step = unit, dist_step = unit * (1 + int(rng() % 4));
    const int noise = int(rng() % 3);
    struct Box {
      int x0, y0, x1, y1;
    };
    std::vector<Box> boxes;
    for (int b = int(rng() % 4); b > 0; --b) {
      const int x0 = int(rng() % uint32_t(w)), y0 = int(rng() % uint32_t(h));
      boxes.push_back(
          {x0, y0, std::min(w, x0 + 8 + int(rng() % 64)), std::min(h, y0 + 8 + int(rng() % 64))});
    }
    std::vector<uint16_t> ref(size_t(w) * size_t(h)), dist(ref.size());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const double g = low + span * (ax * x / w + ay * y / h);
        int r = int(g) / ref_step * ref_step, d = int(g) / dist_step * dist_step;
        for (const Box& b : boxes)
          if (x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1) {
            r += int(rng() % uint32_t(8 * unit));
            d = r;
          }
        if (noise == 1 && rng() % 16 == 0) d += unit;
        const size_t at = size_t(y) * size_t(w) + size_t(x);
        ref[at] = uint16_t(std::clamp(r, 0, peak));
        dist[at] = uint16_t(std::clamp(d, 0, peak));
      }
    c.ref_pics.push_back(vif_testing::luma_picture(c.format, ref));
    c.dist_pics.push_back(vif_testing::luma_picture(c.format, dist));
  }
  fs::create_directories(dir);
  const bool y4m = bitdepth < 16;  // libvmaf reads 16 bits from raw files only
  c.ref = dir / (y4m ? "ref.y4m" : "ref.yuv");
  c.dist = dir / (y4m ? "dist.y4m" : "dist.yuv");
  std::ofstream(c.ref, std::ios::binary) << vif_testing::file_bytes(c.format, c.ref_pics, y4m);
  std::ofstream(c.dist, std::ios::binary) << vif_testing::file_bytes(c.format, c.dist_pics, y4m);
  if (!y4m) {
    c.raw.width = w;
    c.raw.height = h;
    c.raw.bitdepth = bitdepth;
    c.raw.chroma = ChromaFormat::k444;
  }
  return c;
}

struct Case {
  int w, h, bitdepth;
  std::string spec;
  int frames = 2;
};

bool have_oracle() {
  if (fs::exists(testing_vectors::kLibvmafBinary)) return true;
  std::printf("no libvmaf binary at %s: cambi oracle skipped\n",
              testing_vectors::kLibvmafBinary.c_str());
  return false;
}

TEST(CambiOracle, SeededClipsEqualLibvmafBitForBit) {
  if (!have_oracle()) GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary;
  std::vector<Case> cases = {
      {216, 216, 8, "cambi"},
      {320, 240, 10, "cambi=full_ref=true"},
      {576, 324, 8, "cambi=window_size=31:topk=0.2"},
      {500, 281, 10, "cambi=tvi_threshold=0.05:eotf=pq"},
      {640, 360, 8, "cambi=enc_width=480:enc_height=270"},
      {640, 360, 10,
       "cambi=full_ref=true:src_width=400:src_height=225:enc_width=480:enc_height=270"},
      {480, 270, 8, "cambi=full_ref=true:src_width=960:src_height=540"},
      {490, 270, 10, "cambi=full_ref=true:src_width=500:src_height=270"},
      {600, 400, 12, "cambi=max_log_contrast=4:cambi_vis_lum_threshold=10"},
      {400, 300, 16, "cambi=cambi_topk=0.9:max_log_contrast=0"},
      {300, 216, 10, "cambi=enc_bitdepth=8:cambi_max_val=0.5"},
      {720, 480, 10, "cambi=window_size=127:max_log_contrast=5"},
      {350, 250, 8, "cambi=cambi_eotf=pq:full_ref=true"},
      {1000, 216, 12, "cambi=enc_width=900:enc_height=200:topk=1"},
      {216, 40, 8, "cambi=tvi_threshold=0.3"},
      {40, 216, 10, "cambi=cambi_vis_lum_threshold=10:max_log_contrast=1"},
      {260, 240, 10, "cambi=cambi_vis_lum_threshold=300:max_log_contrast=5:eotf=pq"},
      {333, 217, 16, "cambi=full_ref=true:eotf=pq:tvi_threshold=0.001:topk=0.0001"},
      {1920, 1080, 8,
       "cambi=cambi_high_res_speedup=1080:cambi_max_val=17:cambi_vis_lum_threshold=0.06", 1},
      {1920, 1080, 10,
       "cambi=full_ref=true:cambi_high_res_speedup=1440:enc_width=1280:enc_height=720", 1},
  };
  const uint32_t seed = 20261205;
  std::mt19937 rng(seed);
  const int depths[] = {8, 10, 12, 16};
  const char* const options[] = {"",
                                 ":full_ref=true",
                                 ":window_size=15",
                                 ":window_size=90:topk=0.5",
                                 ":tvi_threshold=0.1:eotf=pq",
                                 ":enc_bitdepth=8",
                                 ":enc_bitdepth=12:max_log_contrast=3",
                                 ":cambi_vis_lum_threshold=1.5",
                                 ":cambi_topk=0.05:full_ref=true",
                                 ":max_log_contrast=5:tvi_threshold=0.002",
                                 ":cambi_eotf=pq:cambi_vis_lum_threshold=50:full_ref=true"};
  for (int k = 0; k < 60; ++k) {
    const int w = 216 + int(rng() % 500), h = 216 + int(rng() % 300);
    std::string spec = std::string("cambi=full_ref=false") + options[rng() % std::size(options)];
    // Now and then an encoding size (any shape up to the picture's) or a
    // source size of the same shape, which resample the picture.
    const int scaling = int(rng() % 4);
    if (scaling == 1)
      spec += fmt::format(":enc_width={}:enc_height={}", 180 + int(rng() % uint32_t(w - 179)),
                          150 + int(rng() % uint32_t(h - 149)));
    if (scaling == 2) {
      const int sh = 200 + int(rng() % 400), sw = sh * w / h;
      if (sw >= 320) spec += fmt::format(":full_ref=true:src_width={}:src_height={}", sw, sh);
    }
    cases.push_back({w, h, depths[rng() % 4], spec, 1 + int(rng() % 3)});
  }
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "cambi_oracle";
  int compared = 0, differing = 0, nonzero = 0, own_refusals = 0, both_refused = 0;
  for (size_t k = 0; k < cases.size(); ++k) {
    const Case& c = cases[k];
    const uint32_t clip_seed = seed + uint32_t(k);
    const vif_testing::Clip clip =
        write_banded_clip(dir / std::to_string(k), c.w, c.h, c.bitdepth, c.frames, clip_seed);
    const auto want = vif_testing::libvmaf_frames(clip.ref, clip.dist, clip.raw, c.spec,
                                                  dir / fmt::format("{}.json", k));
    std::unique_ptr<Feature> feature;
    try {
      feature = testing::cpu_feature(c.spec, clip.format);
    } catch (const std::exception& e) {
      // Refused by both (an encoding size under 216 in both sides; a
      // visibility threshold that empties the band, where libvmaf crashes),
      // or by exactvq alone where libvmaf's values are not its definition's
      // (a 10-bit picture it copies at the wrong stride; the empty band, where
      // libvmaf's crash depends on the content).
      if (want.empty()) {
        ++both_refused;
      } else {
        ++own_refusals;
        const std::string what = e.what();
        EXPECT_TRUE(what.find("libvmaf copies") != std::string::npos ||
                    what.find("crashes") != std::string::npos)
            << "case " << k << ": " << what;
      }
      continue;
    }
    ASSERT_EQ(want.size(), clip.ref_pics.size())
        << "libvmaf failed on case " << k << ": " << c.w << "x" << c.h << " " << c.spec;
    const auto mine = testing::frame_values(*feature, clip.ref_pics, clip.dist_pics);
    const std::vector<std::string>& names = feature->outputs();
    for (size_t i = 0; i < want.size(); ++i) {
      std::set<std::string> keys;
      for (const auto& [key, value] : want[i].items()) keys.insert(key);
      EXPECT_EQ(keys, std::set<std::string>(names.begin(), names.end())) << "case " << k;
      for (size_t n = 0; n < names.size(); ++n, ++compared) {
        if (!want[i].contains(names[n])) continue;
        const double v = want[i].at(names[n]).get<double>();
        const bool same = same_bits(mine[i][n], v);
        differing += !same;
        nonzero += v != 0;
        EXPECT_TRUE(same) << c.w << "x" << c.h << " " << c.bitdepth << "-bit " << c.spec << " seed "
                          << clip_seed << " frame " << i << " " << names[n] << ": " << mine[i][n]
                          << " vs libvmaf " << v;
      }
    }
  }
  std::printf(
      "cambi oracle: %zu cases (%d refused by both, %d by exactvq alone), %d values compared (%d "
      "nonzero), %d differing (seed %u)\n",
      cases.size(), both_refused, own_refusals, compared, nonzero, differing, seed);
  EXPECT_EQ(differing, 0);
  EXPECT_GT(nonzero, compared / 2);
}

// Where libvmaf refuses, exactvq refuses too, with an error naming cambi; where
// libvmaf scores, so does exactvq.
TEST(CambiOracle, RefusalsAreLibvmafs) {
  if (!have_oracle()) GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary;
  const Case cases[] = {
      {215, 215, 8, "cambi"},
      {216, 20, 8, "cambi"},
      {215, 300, 8, "cambi"},
      {400, 300, 8, "cambi=enc_width=200:enc_height=200"},
      {400, 300, 10, "cambi=src_width=500:src_height=250:full_ref=true"},
      {2100, 1100, 8, "cambi=window_size=127"},
      {2000, 1100, 8, "cambi=window_size=127"},
  };
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "cambi_refusals";
  for (size_t k = 0; k < std::size(cases); ++k) {
    const Case& c = cases[k];
    const vif_testing::Clip clip =
        write_banded_clip(dir / std::to_string(k), c.w, c.h, c.bitdepth, 1, uint32_t(k));
    const bool libvmaf_scores = !vif_testing::libvmaf_frames(clip.ref, clip.dist, clip.raw, c.spec,
                                                             dir / fmt::format("{}.json", k))
                                     .empty();
    bool refused = false;
    try {
      testing::cpu_feature(c.spec, clip.format);
    } catch (const InputError& e) {
      refused = true;
      EXPECT_NE(std::string(e.what()).find("cambi"), std::string::npos) << e.what();
    }
    EXPECT_EQ(libvmaf_scores, !refused) << c.w << "x" << c.h << " " << c.spec;
  }
}

// heatmaps_path: the five files libvmaf writes, byte for byte, frames scored
// as a run numbers them (in batches on two threads), under options that move
// the sizes, the window and the scaling.
TEST(CambiOracle, HeatmapsEqualLibvmafs) {
  if (!have_oracle()) GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary;
  const Case cases[] = {
      {576, 324, 8, "cambi", 3},
      {640, 360, 10, "cambi=enc_width=480:enc_height=270:full_ref=true", 3},
      {400, 300, 16, "cambi=max_log_contrast=5:window_size=100", 2},
      {300, 216, 12, "cambi=max_log_contrast=0:enc_bitdepth=8", 2},
      {1920, 1080, 8, "cambi=cambi_high_res_speedup=1080", 1},
  };
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "cambi_heatmaps";
  ThreadPool pool(2);
  for (size_t k = 0; k < std::size(cases); ++k) {
    const Case& c = cases[k];
    const fs::path here = dir / std::to_string(k);
    fs::remove_all(here);
    const vif_testing::Clip clip =
        write_banded_clip(here, c.w, c.h, c.bitdepth, c.frames, 4242 + uint32_t(k));
    const std::string theirs = (here / "libvmaf").string(), mine = (here / "exactvq").string();
    const std::string with_maps =
        c.spec + (c.spec.find('=') == std::string::npos ? "=" : ":") + "heatmaps_path=";
    ASSERT_FALSE(vif_testing::libvmaf_frames(clip.ref, clip.dist, clip.raw, with_maps + theirs,
                                             here / "libvmaf.json")
                     .empty())
        << c.spec;
    FeatureContext ctx;
    ctx.format = clip.format;
    ctx.pool = &pool;
    auto feature = make_feature(parse_feature_spec(with_maps + mine), ctx);
    std::vector<FramePair> pairs;
    for (size_t i = 0; i < clip.ref_pics.size(); ++i)
      pairs.push_back({&clip.ref_pics[i], &clip.dist_pics[i], int64_t(i)});
    std::vector<double> values(pairs.size() * feature->outputs().size());
    feature->extract_batch(pairs, values);
    feature.reset();
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(theirs)) names.insert(e.path().filename());
    std::set<std::string> my_names;
    for (const auto& e : fs::directory_iterator(mine)) my_names.insert(e.path().filename());
    EXPECT_EQ(names.size(), size_t(kScales)) << c.spec;
    EXPECT_EQ(my_names, names) << c.spec;
    for (const std::string& name : names) {
      std::ifstream a(fs::path(theirs) / name, std::ios::binary),
          b(fs::path(mine) / name, std::ios::binary);
      const std::string want((std::istreambuf_iterator<char>(a)), {}),
          got((std::istreambuf_iterator<char>(b)), {});
      EXPECT_GT(want.size(), 0u);
      EXPECT_TRUE(got == want) << c.w << "x" << c.h << " " << c.spec << " " << name << ": "
                               << got.size() << " bytes vs libvmaf's " << want.size();
    }
  }
}

}  // namespace
}  // namespace exactvq::cambi
