// integer motion: libvmaf's values bit for bit on ../shared/vectors and on seeded
// random clips against the libvmaf binary (every option); the same bits for any
// thread count and batch size; options, names and refusals.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>

#include <fmt/format.h>

#include "app/score_run.h"
#include "cli/cli_test_util.h"
#include "core/error.h"
#include "libvmaf_catalogue_vectors.h"
#include "libvmaf_vmaf_vectors.h"
#include "metrics/motion/motion_scores.h"
#include "metrics/motion/options.h"
#include "metrics/motion/sad.h"

namespace exactvq {
namespace {

namespace fs = std::filesystem;
using testing_vectors::load_vmaf_pairs;
using testing_vectors::same_bits;
using testing_vectors::stored_value;

const char* const kKeys[] = {"VMAF_integer_feature_motion_sad_score", "integer_motion2",
                             "integer_motion3"};

ScoreReport score_files(const fs::path& ref, const fs::path& dist, const RawOptions& raw,
                        const std::string& feature, int threads = 1) {
  RunOptions o;
  o.ref_path = ref.string();
  o.dist_path = dist.string();
  o.raw = raw;
  o.features = {parse_feature_spec(feature)};
  o.threads = threads;
  return score_videos(o);
}

const std::vector<double>& column(const ScoreReport& r, const std::string& name) {
  for (const auto& f : r.features)
    if (f.name == name) return f.values;
  ADD_FAILURE() << "no column " << name;
  static const std::vector<double> none;
  return none;
}

TEST(MotionVectors, EqualLibvmafBitForBit) {
  if (!fs::exists(testing_vectors::kVmafVectors))
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  int compared = 0;
  for (const auto& pair : load_vmaf_pairs()) {
    for (const char* run : {"vmaf_v0.6.1_nosimd", "vmaf_v0.6.1neg"}) {
      const nlohmann::json* frames = pair.frames(run);
      if (!frames) continue;
      const ScoreReport r = score_files(pair.ref, pair.dist, pair.raw, "motion");
      ASSERT_EQ(r.frame_numbers.size(), frames->size()) << pair.name;
      for (const char* key : kKeys) {
        const auto& values = column(r, key);
        for (size_t i = 0; i < frames->size(); ++i, ++compared) {
          const double want = stored_value((*frames)[i].at(key));
          EXPECT_TRUE(same_bits(values[i], want))
              << pair.name << " " << run << " frame " << i << " " << key << ": " << values[i]
              << " vs libvmaf " << want;
        }
      }
    }
  }
  EXPECT_GT(compared, 100);
}

// VMAF v1.0.16's motion (motion_max_val=18; HFR: also the five-frame window
// and the moving average): every motion key of libvmaf's eight v1 model runs
// (libvmaf_catalogue_scores.json), wherever the run is perturb-stable.
TEST(MotionVectors, V1ModelRunsEqualLibvmafBitForBit) {
  if (!fs::exists(testing_vectors::kCatalogueVectors))
    GTEST_SKIP() << "no " << testing_vectors::kCatalogueVectors;
  int compared = 0;
  for (const auto& pair : testing_vectors::load_catalogue_pairs()) {
    for (const char* run :
         {"vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_5d0h", "vmaf_v1.0.16_3d0h_2160",
          "vmaf_v1.0.16_1d5h_2160", "vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr_5d0h",
          "vmaf_v1.0.16_hfr_3d0h_2160", "vmaf_v1.0.16_hfr_1d5h_2160"}) {
      const nlohmann::json* frames = testing_vectors::stable_frames(pair, run);
      if (!frames) continue;
      const bool hfr = std::string(run).find("_hfr_") != std::string::npos;
      const ScoreReport r = score_files(
          pair.ref, pair.dist, pair.raw,
          hfr ? "motion=motion_max_val=18:motion_five_frame_window=true:motion_moving_average=true"
              : "motion=motion_max_val=18");
      ASSERT_EQ(r.frame_numbers.size(), frames->size()) << pair.name;
      const std::string suffix = hfr ? "_mffw_mmxv_18_mma" : "_mmxv_18";
      for (const std::string key :
           {"VMAF_integer_feature_motion_sad_score", "integer_motion2", "integer_motion3"}) {
        const auto& values = column(r, key + suffix);
        ASSERT_EQ(values.size(), frames->size()) << pair.name << " " << run << " " << key;
        for (size_t i = 0; i < frames->size(); ++i, ++compared) {
          const double want = stored_value((*frames)[i].at(key + suffix));
          EXPECT_TRUE(same_bits(values[i], want))
              << pair.name << " " << run << " frame " << i << " " << key << suffix << ": "
              << values[i] << " vs libvmaf " << want;
        }
      }
    }
  }
  std::printf("motion v1 vectors: %d values compared\n", compared);
  EXPECT_GT(compared, 500);
}

// Random clips: a moving noise pattern whose speed changes from frame to frame.
struct Clip {
  VideoFormat format;
  fs::path ref, dist;
  RawOptions raw;
};

Clip write_clip(const fs::path& dir, int w, int h, int bitdepth, int frames, uint32_t seed) {
  Clip c;
  // 4:4:4 for odd sizes: libvmaf's reader takes odd 4:2:0 chroma for floor(W/2).
  const ChromaFormat chroma = (w % 2 || h % 2) ? ChromaFormat::k444 : ChromaFormat::k420;
  c.format = clitest::make_format(w, h, chroma, bitdepth);
  std::mt19937 rng(seed);
  std::vector<clitest::Frame> ref, dist;
  const uint32_t peak = c.format.max_sample();
  std::vector<uint16_t> base(size_t(w + 4 * frames) * size_t(h));
  for (auto& s : base) s = uint16_t(rng() % (peak + 1));
  int shift = 0;
  for (int f = 0; f < frames; ++f) {
    clitest::Frame r, d;
    for (int p = 0; p < 3; ++p) {
      const int pw = c.format.plane_width(p), ph = c.format.plane_height(p);
      r[size_t(p)].resize(size_t(pw) * size_t(ph));
      d[size_t(p)].resize(size_t(pw) * size_t(ph));
      for (int y = 0; y < ph; ++y)
        for (int x = 0; x < pw; ++x) {
          const uint16_t v = p == 0 ? base[size_t(y) * size_t(w + 4 * frames) + size_t(x + shift)]
                                    : uint16_t(peak / 2);
          r[size_t(p)][size_t(y) * size_t(pw) + size_t(x)] = v;
          d[size_t(p)][size_t(y) * size_t(pw) + size_t(x)] = uint16_t(peak - v);
        }
    }
    ref.push_back(r);
    dist.push_back(d);
    shift += int(rng() % 4);
  }
  fs::create_directories(dir);
  if (bitdepth == 16) {
    c.ref = dir / "ref.yuv";
    c.dist = dir / "dist.yuv";
    clitest::write_file(c.ref, clitest::raw_bytes(c.format, ref));
    clitest::write_file(c.dist, clitest::raw_bytes(c.format, dist));
    c.raw.width = w;
    c.raw.height = h;
    c.raw.bitdepth = bitdepth;
    c.raw.chroma = chroma;
  } else {
    c.ref = dir / "ref.y4m";
    c.dist = dir / "dist.y4m";
    clitest::write_file(c.ref, clitest::y4m_bytes(c.format, ref));
    clitest::write_file(c.dist, clitest::y4m_bytes(c.format, dist));
  }
  return c;
}

// libvmaf's own values for a clip, plain C, full precision.
clitest::Report libvmaf_report(const Clip& c, const std::string& feature, const fs::path& out) {
  std::string cmd = fmt::format(
      "VMAF_JSON_FULL_PRECISION=1 '{}' -r '{}' -d '{}' --feature '{}' "
      "--no_prediction --cpumask 0xffffffff --json -o '{}' -q",
      testing_vectors::kLibvmafBinary.string(), c.ref.string(), c.dist.string(), feature,
      out.string());
  if (c.raw.width)
    cmd += fmt::format(" -w {} -h {} -p {} -b {}", c.format.width, c.format.height,
                       chroma_name(c.format.chroma), c.format.bitdepth);
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return clitest::parse_json(clitest::read_file(out));
}

TEST(MotionOracle, RandomClipsAndOptionsEqualLibvmaf) {
  if (!fs::exists(testing_vectors::kLibvmafBinary))
    GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary
                 << ": oracle skipped";
  const uint32_t seed = 20261201;
  std::mt19937 rng(seed);
  const fs::path dir = clitest::test_dir();
  struct Case {
    int w, h, depth;
    std::string options;
  };
  const Case cases[] = {
      {3, 3, 8, ""},
      {33, 17, 8, "motion_blend_factor=0.5:motion_blend_offset=0.5"},
      {64, 36, 10, "motion_moving_average=true"},
      {45, 31, 12, "motion_five_frame_window=true"},
      {40, 24, 16, "motion_fps_weight=2.5:motion_max_val=7"},
      {97, 5, 8,
       "motion_blend_factor=0.25:motion_blend_offset=3:motion_moving_average=true:motion_five_"
       "frame_window=true"},
      {21, 64, 16, "debug=true"},
      {30, 20, 8, "motion_force_zero=true"},
  };
  int compared = 0;
  for (size_t k = 0; k < std::size(cases); ++k) {
    const Case& c = cases[k];
    const auto clip_seed = uint32_t(rng());
    const Clip clip = write_clip(dir / std::to_string(k), c.w, c.h, c.depth, 6, clip_seed);
    const std::string feature = c.options.empty() ? "motion" : "motion=" + c.options;
    const clitest::Report want = libvmaf_report(clip, feature, dir / fmt::format("{}.json", k));
    const ScoreReport got = score_files(clip.ref, clip.dist, clip.raw, feature);
    ASSERT_FALSE(want.names.empty()) << feature;
    for (const auto& name : want.names) {
      const auto& values = column(got, name);
      const auto& expected = want.values.at(name);
      ASSERT_EQ(values.size(), expected.size()) << name;
      for (size_t i = 0; i < values.size(); ++i, ++compared)
        EXPECT_EQ(clitest::bits(values[i]), clitest::bits(expected[i]))
            << "seed " << seed << " clip " << c.w << "x" << c.h << " " << c.depth << "-bit "
            << feature << " frame " << i << " " << name << ": " << values[i] << " vs "
            << expected[i];
    }
  }
  EXPECT_GT(compared, 100);
}

TEST(Motion, AnyThreadCountGivesTheSameBits) {
  const fs::path dir = clitest::test_dir();
  const Clip clip = write_clip(dir, 70, 41, 10, 9, 7);
  const ScoreReport one = score_files(clip.ref, clip.dist, clip.raw, "motion", 1);
  for (int threads : {2, 3, 8}) {
    const ScoreReport many = score_files(clip.ref, clip.dist, clip.raw, "motion", threads);
    ASSERT_EQ(many.features.size(), one.features.size());
    for (size_t c = 0; c < one.features.size(); ++c)
      for (size_t i = 0; i < one.features[c].values.size(); ++i)
        EXPECT_EQ(clitest::bits(many.features[c].values[i]),
                  clitest::bits(one.features[c].values[i]))
            << threads << " threads, " << one.features[c].name << " frame " << i;
  }
}

TEST(Motion, SadOfRowRangesAddsUp) {
  const fs::path dir = clitest::test_dir();
  for (int depth : {8, 12}) {
    const VideoFormat f = clitest::make_format(23, 19, ChromaFormat::k420, depth);
    const Picture a = clitest::to_picture(f, clitest::make_frame(f, 0, 0));
    const Picture b = clitest::to_picture(f, clitest::make_frame(f, 3, 1));
    const uint64_t whole = motion::sad_reference(a.plane(0), b.plane(0), depth, 0, 19);
    EXPECT_GT(whole, 0u);
    EXPECT_EQ(motion::sad_reference(a.plane(0), b.plane(0), depth, 0, 7) +
                  motion::sad_reference(a.plane(0), b.plane(0), depth, 7, 19),
              whole);
  }
}

TEST(Motion, TinyPicturesMirrorInside) {
  // libvmaf reads outside pictures under 3 samples a side; here the taps reflect
  // until inside, and a 1-sample line reads its one sample.
  EXPECT_EQ(motion::mirror_index(-2, 1), 0);
  EXPECT_EQ(motion::mirror_index(3, 1), 0);
  EXPECT_EQ(motion::mirror_index(-2, 2), 0);
  EXPECT_EQ(motion::mirror_index(3, 2), 1);
  EXPECT_EQ(motion::mirror_index(-1, 5), 1);
  EXPECT_EQ(motion::mirror_index(5, 5), 3);
  EXPECT_EQ(motion::mirror_index(6, 5), 2);
  const fs::path dir = clitest::test_dir();
  for (auto [w, h] : {std::pair{1, 1}, {2, 2}, {1, 7}, {5, 2}}) {
    const Clip clip = write_clip(dir / fmt::format("{}x{}", w, h), w, h, 8, 3, 11);
    const ScoreReport r = score_files(clip.ref, clip.dist, clip.raw, "motion");
    EXPECT_EQ(r.frame_numbers.size(), 3u);
  }
}

TEST(MotionOptions, NamesAliasesRangesAndSuffixes) {
  const auto parse = [](const std::string& s) {
    return motion::parse_motion_options(parse_feature_spec(s));
  };
  EXPECT_EQ(motion::key_suffix(parse("motion")), "");
  EXPECT_EQ(motion::key_suffix(parse("motion=mbo=1:mbf=0.5")), "_mbf_0.5_mbo_1");
  EXPECT_EQ(motion::key_suffix(parse("motion=motion_force_zero=true")), "_force_0");
  EXPECT_EQ(motion::key_suffix(parse("motion=motion_fps_weight=2:motion_max_val=3")),
            "_mfw_2_mmxv_3");
  EXPECT_EQ(motion::key_suffix(parse("motion=debug=true")), "");
  EXPECT_THROW(parse("motion=motion_blend_factor=1.5"), UsageError);
  EXPECT_THROW(parse("motion=motion_fps_weight=x"), UsageError);
  EXPECT_THROW(parse("motion=speed=1"), UsageError);
}

TEST(MotionRuns, BlendAndLookAhead) {
  motion::MotionOptions o;
  const std::vector<double> sad = {0.0, 3.0, 1.0, 5.0};
  std::vector<double> m2(4), m3(4);
  motion::run_values(sad, o, m2, m3);
  EXPECT_EQ(m2, (std::vector<double>{0.0, 1.0, 1.0, 5.0}));
  EXPECT_EQ(m3, (std::vector<double>{3.0, 1.0, 1.0, 5.0}));
  EXPECT_EQ(motion::blend(50.0, 0.5, 40.0), 45.0);
  EXPECT_EQ(motion::blend(30.0, 0.5, 40.0), 30.0);
}

// --subsample: motion still compares each frame with the one before it in the
// input, and the run reports every Nth frame's values of the whole pass.
TEST(MotionRuns, SubsampleKeepsEveryNthFrameOfTheWholePass) {
  const fs::path dir = clitest::test_dir();
  const Clip clip = write_clip(dir, 16, 16, 8, 7, 3);
  const ScoreReport all = score_files(clip.ref, clip.dist, clip.raw, "motion");
  RunOptions o;
  o.ref_path = clip.ref.string();
  o.dist_path = clip.dist.string();
  o.features = {parse_feature_spec("motion")};
  o.subsample = 3;
  const ScoreReport some = score_videos(o);
  EXPECT_EQ(some.frame_numbers, (std::vector<uint32_t>{0, 3, 6}));
  for (size_t c = 0; c < all.features.size(); ++c)
    for (size_t i = 0; i < some.frame_numbers.size(); ++i)
      EXPECT_EQ(clitest::bits(some.features[c].values[i]),
                clitest::bits(all.features[c].values[3 * i]))
          << all.features[c].name << " frame " << 3 * i;
}

}  // namespace
}  // namespace exactvq
