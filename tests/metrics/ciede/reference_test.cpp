// ciede's definition and engine: the engine's sums equal the scalar
// reference's bits for any thread count; libvmaf's 4:2:2 chroma reading; the
// constants libvmaf's compiler folded; the formats refused, with messages
// naming the feature and the size; no options but exactvq's fp64.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "backends/device.h"
#include "ciede_clips.h"
#include "core/error.h"
#include "libm/libm.h"
#include "metrics/ciede/definition.h"
#include "metrics/ciede/engine.h"
#include "metrics/ciede/reference.h"
#include "metrics/registry.h"

namespace exactvq::ciede {
namespace {

using ciede_testing::Kind;
using ciede_testing::random_pair;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

struct Shape {
  int w, h;
  ChromaFormat chroma;
  int bitdepth;
};

const Shape kShapes[] = {
    {1, 1, ChromaFormat::k420, 8},    {2, 2, ChromaFormat::k420, 8},
    {17, 9, ChromaFormat::k420, 10},  {64, 40, ChromaFormat::k420, 12},
    {33, 70, ChromaFormat::k420, 16}, {2, 1, ChromaFormat::k422, 8},
    {18, 11, ChromaFormat::k422, 10}, {70, 33, ChromaFormat::k422, 16},
    {1, 1, ChromaFormat::k444, 8},    {17, 9, ChromaFormat::k444, 12},
    {50, 61, ChromaFormat::k444, 16}, {130, 3, ChromaFormat::k444, 10},
};

TEST(CiedeEngine, SumsEqualTheReferenceForAnyThreadCount) {
  int compared = 0;
  for (const Shape& s : kShapes)
    for (Kind kind : {Kind::kSmooth, Kind::kFullRange, Kind::kExtremes}) {
      const VideoFormat f{s.w, s.h, s.chroma, s.bitdepth};
      const uint32_t seed = uint32_t(1000 * s.w + 7 * s.h + s.bitdepth + 3 * int(kind));
      const auto [r, d] = random_pair(f, kind, seed);
      const Picture ref = clitest::to_picture(f, r), dist = clitest::to_picture(f, d);
      const double want = delta_e_sum_reference(ref, dist);
      const FramePair pair{&ref, &dist, FramePair::kLoose};
      for (int threads : {0, 1, 2, 3, 7}) {
        std::unique_ptr<ThreadPool> pool =
            threads ? std::make_unique<ThreadPool>(threads) : nullptr;
        auto engine = make_engine(cpu_device(), EngineSetup{f, pool.get()});
        double got = -1;
        engine->score({&pair, 1}, {&got, 1});
        EXPECT_TRUE(same_bits(got, want)) << f.describe() << " seed " << seed << " threads "
                                          << threads << ": " << got << " vs " << want;
        ++compared;
      }
    }
  std::printf("ciede engine: %d sums equal to the reference's\n", compared);
}

// A picture compared with itself: every delta E is +0, the sum +0, the score +inf
// (libvmaf's JSON writes null).
TEST(CiedeEngine, IdenticalPicturesScoreInfinity) {
  const VideoFormat f{16, 8, ChromaFormat::k420, 8};
  const auto [r, d] = random_pair(f, Kind::kFullRange, 5);
  const Picture ref = clitest::to_picture(f, r);
  EXPECT_TRUE(same_bits(delta_e_sum_reference(ref, ref), 0.0));
  auto feature = make_feature(parse_feature_spec("ciede"), FeatureContext{f, nullptr, nullptr});
  EXPECT_EQ(feature->outputs(), std::vector<std::string>{"ciede2000"});
  double score = 0;
  feature->extract(ref, ref, {&score, 1});
  EXPECT_TRUE(std::isinf(score) && score > 0) << score;
}

// 4:2:2: libvmaf halves the row and not the column, reading its plane of rows of
// 32-sample multiples flat: row y takes samples y/2 * S + x.
TEST(CiedeDefinition, ChromaSitesFollowLibvmafsReading) {
  const VideoFormat f422{100, 6, ChromaFormat::k422, 8};  // half width 50, S = 64
  EXPECT_EQ(chroma_site(f422, 0, 0).row, 0);
  EXPECT_EQ(chroma_site(f422, 49, 1).col, 49);
  EXPECT_FALSE(chroma_site(f422, 49, 1).zero);
  EXPECT_TRUE(chroma_site(f422, 50, 0).zero);  // padding
  EXPECT_TRUE(chroma_site(f422, 63, 2).zero);
  const ChromaSite next = chroma_site(f422, 64, 3);  // into the next row
  EXPECT_EQ(next.row, 2);
  EXPECT_EQ(next.col, 0);
  EXPECT_FALSE(next.zero);
  EXPECT_EQ(chroma_site(f422, 99, 5).row, 3);
  EXPECT_EQ(chroma_site(f422, 99, 5).col, 35);
  const VideoFormat f420{7, 5, ChromaFormat::k420, 8};
  EXPECT_EQ(chroma_site(f420, 6, 4).row, 2);
  EXPECT_EQ(chroma_site(f420, 6, 4).col, 3);
  const VideoFormat f444{7, 5, ChromaFormat::k444, 8};
  EXPECT_EQ(chroma_site(f444, 6, 4).col, 6);
}

TEST(CiedeDefinition, FoldedConstantsAreTheLibraryValues) {
  // powf(25, 7), folded by libvmaf's compiler, is what the pinned powf gives.
  EXPECT_EQ(libm::powf(25.0f, 7.0f), kPowf25To7);
  EXPECT_EQ(libm::pow(25.0, 7.0), 6103515625.0);
  // Neutral grey: L* of mid-grey at every depth is the same, a* and b* near 0.
  for (int bits : {8, 10, 12, 16}) {
    const float s = float(1 << (bits - 8));
    const LabColor white = lab_color(235 * s, 128 * s, 128 * s, bits);
    EXPECT_NEAR(white.l, 100.0f, 1e-3f) << bits;
    EXPECT_NEAR(white.a, 0.0f, 1e-2f) << bits;
  }
  EXPECT_EQ(delta_e_2000(lab_color(16, 128, 128, 8), lab_color(16, 128, 128, 8)), 0.0f);
}

void expect_refused(const VideoFormat& f, const std::string& needle) {
  try {
    make_feature(parse_feature_spec("ciede"), FeatureContext{f, nullptr, nullptr});
    ADD_FAILURE() << f.describe() << " was not refused";
  } catch (const PictureError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("ciede"), std::string::npos) << m;
    EXPECT_NE(m.find(f.describe()), std::string::npos) << m;
    EXPECT_NE(m.find(needle), std::string::npos) << m;
  }
}

TEST(CiedeFeature, RefusesWhatLibvmafHasNoValueFor) {
  expect_refused({64, 32, ChromaFormat::kMono, 8}, "monochrome");
  for (int bits : {9, 11, 13, 14, 15})
    expect_refused({64, 32, ChromaFormat::k420, bits}, "8, 10, 12 or 16 bits");
  expect_refused({64, 32, ChromaFormat::k444, 9}, "8, 10, 12 or 16 bits");
  expect_refused({17, 8, ChromaFormat::k422, 8}, "odd width");
  // One row: libvmaf's reading passes its half-width padding and leaves the picture.
  expect_refused({66, 1, ChromaFormat::k422, 10}, "past the end");
  // Accepted: one row narrow enough to stay in the padding; odd 4:2:0; odd 4:4:4.
  for (const VideoFormat& f :
       {VideoFormat{32, 1, ChromaFormat::k422, 8}, VideoFormat{7, 5, ChromaFormat::k420, 8},
        VideoFormat{1, 1, ChromaFormat::k420, 16}, VideoFormat{17, 9, ChromaFormat::k444, 12}})
    EXPECT_NO_THROW(make_feature(parse_feature_spec("ciede"), FeatureContext{f, nullptr, nullptr}))
        << f.describe();
}

TEST(CiedeFeature, TakesOnlyFp64) {
  const FeatureContext ctx{VideoFormat{64, 32, ChromaFormat::k420, 8}, nullptr, nullptr};
  for (const char* spec : {"ciede=foo=1", "ciede=fp64=fast"}) {
    try {
      make_feature(parse_feature_spec(spec), ctx);
      ADD_FAILURE() << "an option was taken: " << spec;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("ciede"), std::string::npos) << e.what();
    }
  }
  for (const char* spec : {"ciede=fp64=auto", "ciede=fp64=native", "ciede=fp64=emulate"})
    EXPECT_NO_THROW(make_feature(parse_feature_spec(spec), ctx)) << spec;
}

}  // namespace
}  // namespace exactvq::ciede
