// vif's stages and feature: the filters' constants, libvmaf's edge mirroring,
// integer sums that any split gives alike, the size refusals, and the feature
// (names, threads, CPU only) equal to the reference.
#include "metrics/vif/reference.h"

#include <gtest/gtest.h>

#include <numeric>

#include "backends/device.h"
#include "core/error.h"
#include "core/thread_pool.h"
#include "metrics/vif/edges.h"
#include "metrics/vif/statistic.h"
#include "metrics/vif/taps.h"
#include "metrics/vif/vif_feature.h"
#include "vif_clips.h"

namespace exactvq::vif {
namespace {

namespace fs = std::filesystem;

TEST(VifTaps, EachLevelSumsTo65536) {
  for (int level = 0; level < kLevels; ++level) {
    const auto taps = level_taps(level);
    EXPECT_EQ(std::accumulate(taps.begin(), taps.end(), 0u), 65536u) << level;
    EXPECT_EQ(int(taps.size()), 2 * half_taps(level) + 1);
  }
  EXPECT_EQ(half_taps(0), kMaxHalfTaps);
}

// The mirror without the edge repeated, periodic beyond (period 2n - 2).
int reflect(int x, int n) {
  const int period = 2 * n - 2;
  x = ((x % period) + period) % period;
  return x < n ? x : period - x;
}

TEST(VifEdges, RowsAndColumnsMirrorPeriodicallyFromTwoOn) {
  for (int n = 2; n <= 20; ++n)
    for (int half = 1; half <= kMaxHalfTaps; ++half) {
      LevelRows rows(1, n);
      for (int y = 0; y < n; ++y) rows.row(y)[0] = uint8_t(y);
      mirror_edge_rows(rows, n, half);
      EdgeLine line(n);
      for (int x = 0; x < n; ++x) line[x] = uint32_t(x);
      mirror_edge_columns(line, n, half);
      for (int i = -half; i < n + half; ++i) {
        EXPECT_EQ(rows.row(i)[0], reflect(i, n)) << n << " " << half << " " << i;
        EXPECT_EQ(line[i], uint32_t(reflect(i, n))) << n << " " << half << " " << i;
      }
    }
}

TEST(VifEdges, OneColumnKeepsWhatTheLineHeld) {
  EdgeLine line(8);
  for (int x = -kMaxHalfTaps; x < 8 + kMaxHalfTaps; ++x) line[x] = uint32_t(100 + x);
  line[0] = 7;
  mirror_edge_columns(line, 1, 4);
  for (int f = 1; f <= 4; ++f) {
    EXPECT_EQ(line[f], uint32_t(100 + f));
    EXPECT_EQ(line[-f], uint32_t(100 + f));
  }
}

TEST(VifStatistic, RowSumsArePixelSums) {
  const VideoFormat f{37, 1, ChromaFormat::k444, 10};
  MomentLines lines(f.width);
  std::mt19937 rng(5);
  for (int x = 0; x < f.width; ++x) {
    lines.mu1[x] = uint32_t(rng() % 65536);
    lines.mu2[x] = uint32_t(rng() % 65536);
    lines.xx[x] = uint32_t(uint64_t(lines.mu1[x]) * lines.mu1[x] >> 16) + uint32_t(rng() % 5000000);
    lines.yy[x] = uint32_t(uint64_t(lines.mu2[x]) * lines.mu2[x] >> 16) + uint32_t(rng() % 5000000);
    lines.xy[x] = uint32_t(uint64_t(lines.mu1[x]) * lines.mu2[x] >> 16) + uint32_t(rng() % 3000000);
  }
  const auto taps = level_taps(1);
  for (EdgeLine* l : {&lines.mu1, &lines.mu2, &lines.xx, &lines.yy, &lines.xy})
    mirror_edge_columns(*l, f.width, half_taps(1));
  const LevelSums row = horizontal_statistics(lines, f.width, taps, 100.0);
  LevelSums pixels;
  for (int x = f.width - 1; x >= 0; --x) {
    PixelMoments m;
    for (size_t k = 0; k < taps.size(); ++k) {
      const int c = x - half_taps(1) + int(k);
      m.mu1 += taps[k] * lines.mu1[c];
      m.mu2 += taps[k] * lines.mu2[c];
      m.xx += taps[k] * uint64_t(lines.xx[c]);
      m.yy += taps[k] * uint64_t(lines.yy[c]);
      m.xy += taps[k] * uint64_t(lines.xy[c]);
    }
    add_pixel_statistic(m, 100.0, pixels);
  }
  EXPECT_EQ(row, pixels);
  EXPECT_GT(row.den_log + row.den_non_log, 0);
}

TEST(VifReference, SizesItCannotScoreAreRefused) {
  const VifOptions plain, skip{false, 100.0, true};
  EXPECT_THROW(check_vif_size(1, 8, plain, "t"), PictureError);
  EXPECT_THROW(check_vif_size(64, 7, plain, "t"), PictureError);
  EXPECT_THROW(check_vif_size(3, 8, skip, "t"), PictureError);
  EXPECT_NO_THROW(check_vif_size(2, 8, plain, "t"));
  EXPECT_NO_THROW(check_vif_size(4, 8, skip, "t"));
  try {
    check_vif_size(7, 5, plain, "pair x");
    ADD_FAILURE() << "7x5 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("7x5"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("pair x"), std::string::npos) << e.what();
  }
  const VideoFormat f{7, 5, ChromaFormat::k444, 8};
  const Picture p = vif_testing::luma_picture(f, std::vector<uint16_t>(35, 9));
  EXPECT_THROW(vif_reference(p.plane(0), p.plane(0), 8, plain), PictureError);
  FeatureContext ctx;
  ctx.format = f;
  EXPECT_THROW(make_vif_feature(plain, ctx), PictureError);
  // Planes that do not match.
  const VideoFormat g{8, 8, ChromaFormat::k444, 8};
  const Picture q = vif_testing::luma_picture(g, std::vector<uint16_t>(64, 9));
  const Picture q10 = vif_testing::luma_picture(VideoFormat{8, 8, ChromaFormat::k444, 10},
                                                std::vector<uint16_t>(64, 9));
  EXPECT_THROW(vif_reference(q.plane(0), p.plane(0), 8, plain), InputError);
  EXPECT_THROW(vif_reference(q.plane(0), q10.plane(0), 8, plain), InputError);
  EXPECT_THROW(vif_reference(q.plane(0), q.plane(0), 17, plain), PictureError);
}

TEST(VifReference, NarrowPicturesGiveNaNWhereLevelsHaveNoColumns) {
  const VideoFormat f{3, 8, ChromaFormat::k444, 8};
  std::vector<uint16_t> a(24), b(24);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = uint16_t(i * 37 % 256);
    b[i] = uint16_t(i * 11 % 256);
  }
  const Picture r = vif_testing::luma_picture(f, a), d = vif_testing::luma_picture(f, b);
  const VifScores s = vif_reference(r.plane(0), d.plane(0), 8, VifOptions{});
  EXPECT_FALSE(std::isnan(s.scale[0]));
  EXPECT_FALSE(std::isnan(s.scale[1]));
  EXPECT_TRUE(std::isnan(s.scale[2]));
  EXPECT_TRUE(std::isnan(s.scale[3]));
  EXPECT_TRUE(std::signbit(s.scale[3]));  // x86-64's 0.0f / 0.0f
  EXPECT_EQ(s.den_scale[3], 0.0);
}

TEST(VifReference, IdenticalPicturesScoreOne) {
  const vif_testing::Clip c =
      vif_testing::write_clip(fs::path(EXACTVQ_TEST_TMP) / "vif_identical", 40, 24, 10, 1, 3);
  const VifScores s =
      vif_reference(c.ref_pics[0].plane(0), c.ref_pics[0].plane(0), 10, VifOptions{});
  for (double v : s.scale) EXPECT_NEAR(v, 1.0, 1e-6);
}

TEST(VifFeature, EqualsTheReferenceOnAnyThreadCount) {
  const vif_testing::Clip c =
      vif_testing::write_clip(fs::path(EXACTVQ_TEST_TMP) / "vif_feature", 45, 27, 12, 5, 9);
  VifOptions o;
  o.debug = true;
  o.gain_limit = 1.0;
  std::vector<FramePair> pairs;
  for (size_t i = 0; i < c.ref_pics.size(); ++i)
    pairs.push_back({&c.ref_pics[i], &c.dist_pics[i], int64_t(i)});
  for (int threads : {1, 3}) {
    ThreadPool pool(threads);
    FeatureContext ctx;
    ctx.format = c.format;
    ctx.pool = threads > 1 ? &pool : nullptr;
    const auto feature = make_vif_feature(o, ctx);
    ASSERT_EQ(feature->outputs(), output_names(o));
    const size_t n = feature->outputs().size();
    std::vector<double> out(pairs.size() * n);
    feature->extract_batch(pairs, out);
    for (size_t i = 0; i < pairs.size(); ++i) {
      const VifScores s = vif_reference(c.ref_pics[i].plane(0), c.dist_pics[i].plane(0), 12, o);
      EXPECT_EQ(out[i * n + 0], s.scale[0]);
      EXPECT_EQ(out[i * n + 3], s.scale[3]);
      EXPECT_EQ(out[i * n + 4], s.vif);
      EXPECT_EQ(out[i * n + 14], s.den_scale[3]);
    }
  }
}

}  // namespace
}  // namespace exactvq::vif
