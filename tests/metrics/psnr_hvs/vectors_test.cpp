// psnr_hvs on ../shared/vectors against libvmaf's plain C
// (libvmaf_catalogue_scores.json, run psnr_hvs): every per-frame key and every
// pooled value bit for bit through the command line where libvmaf scored and
// the definition has a value in every plane; where a plane has no 8x8 block
// (libvmaf: NaN, or a crash on odd 4:2:0 sizes) exactvq refuses, naming the
// feature and the plane's size, and the planes that have a value still equal
// libvmaf's through the reference; above 12 bits (libvmaf: rc 234) it refuses,
// naming the depth.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/exit_status.h"
#include "core/error.h"
#include "metrics/psnr_hvs/psnr_hvs_feature.h"
#include "metrics/psnr_hvs/reference.h"
#include "psnr_hvs_catalogue.h"
#include "metrics/vif/vif_clips.h"

namespace exactvq {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace psnr_hvs_testing;

class PsnrHvsVectors : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kCatalogue))
      GTEST_SKIP() << "no catalogue at " << kCatalogue << ": libvmaf comparison skipped";
  }
};

TEST_F(PsnrHvsVectors, EqualLibvmafBitForBitOrRefuseClearly) {
  int compared = 0, pooled = 0, through_reference = 0, refused_size = 0, refused_depth = 0,
      infinite = 0;
  for (const CataloguePair& p : load_catalogue()) {
    const int rc = int(p.run.at("rc").get<double>());
    if (rc == 234) {  // libvmaf: invalid bit depth
      expect_refused_for_depth(p, run_exactvq(p, "2"));
      ++refused_depth;
      continue;
    }
    const std::vector<Picture> refs = vif_testing::read_pictures(p.ref, p.raw);
    const std::vector<Picture> dists = vif_testing::read_pictures(p.dist, p.raw);
    ASSERT_FALSE(refs.empty()) << p.name;
    const VideoFormat f = refs[0].format;
    bool has_value = true;
    try {
      psnr_hvs::check_input(f);
    } catch (const InputError&) {
      has_value = false;
    }
    if (rc != 0) {
      // libvmaf crashed (its Y4M reader on odd 4:2:0 sizes): these pictures have a
      // plane without a block, and exactvq says so.
      EXPECT_EQ(rc, -11) << p.name;
      EXPECT_FALSE(has_value) << p.name;
    } else {
      ASSERT_TRUE(p.run.at("perturb_stable").get<bool>()) << p.name;
    }
    if (!has_value) {
      const clitest::RunResult r = run_exactvq(p, "2");
      EXPECT_EQ(r.status, kExitPicture) << p.name;
      EXPECT_NE(r.err.find(fmt::format("feature psnr_hvs cannot score {}x{} {} pictures: their",
                                       f.width, f.height, chroma_name(f.chroma))),
                std::string::npos)
          << p.name << ": " << clitest::describe(r);
      EXPECT_TRUE(r.out.empty()) << p.name;
      ++refused_size;
      if (rc != 0) continue;
      // The planes that have a value equal libvmaf's; the others are libvmaf's NaN.
      for (const json& frame : p.run.at("frames")) {
        const size_t i = size_t(frame.at("frameNum").get<double>());
        ASSERT_LT(i, refs.size());
        for (int plane = 0; plane < 3; ++plane) {
          const json& want = frame.at(kKeys[plane]);
          const int w = f.plane_width(plane), h = f.plane_height(plane);
          if (w < psnr_hvs::kBlock || h < psnr_hvs::kBlock) {
            EXPECT_TRUE(want.is_null()) << p.name << " " << kKeys[plane];
            continue;
          }
          const float sum = psnr_hvs::plane_error_sum_reference(refs[i].plane(plane),
                                                                dists[i].plane(plane), plane);
          const double mine = psnr_hvs::decibels(psnr_hvs::plane_score(sum, w, h, f.bitdepth));
          ASSERT_FALSE(want.is_null()) << p.name << " " << kKeys[plane];
          EXPECT_TRUE(same_bits(mine, want.get<double>()))
              << p.name << " frame " << i << " " << kKeys[plane] << ": " << mine << " vs libvmaf "
              << want;
          ++through_reference;
        }
        EXPECT_TRUE(frame.at("psnr_hvs").is_null());
      }
      continue;
    }
    for (const std::string threads : {"1", "2"}) {
      const clitest::RunResult r = run_exactvq(p, threads);
      ASSERT_EQ(r.status, 0) << p.name << ": " << clitest::describe(r);
      const json out = json::parse(testing_vectors::signed_zeros_kept(r.out));
      const json& frames = out.at("frames");
      ASSERT_EQ(frames.size(), p.run.at("frames").size()) << p.name;
      for (size_t i = 0; i < frames.size(); ++i)
        for (const char* key : kKeys) {
          const json& want = p.run.at("frames")[i].at(key);
          const json& mine = frames[i].at("metrics").at(key);
          EXPECT_TRUE(same_value(mine, want))
              << p.name << " frame " << i << " " << key << ": " << mine << " vs libvmaf " << want;
          ++compared;
          infinite += want.is_null();
        }
      for (const char* key : kKeys)
        for (const char* stat : kPooled) {
          const json& want = p.run.at("pooled").at(key).at(stat);
          const json& mine = out.at("pooled_metrics").at(key).at(stat);
          EXPECT_TRUE(same_value(mine, want)) << p.name << " pooled " << key << " " << stat << ": "
                                              << mine << " vs libvmaf " << want;
          ++pooled;
        }
    }
  }
  std::printf(
      "[ vectors  ] psnr_hvs: %d per-frame values (%d of them libvmaf's null, +inf) and %d pooled "
      "values == libvmaf bit for bit (1 and 2 threads); %d plane values of refused pairs == "
      "libvmaf through the reference; %d pairs refused for size, %d for depth\n",
      compared, infinite, pooled, through_reference, refused_size, refused_depth);
  EXPECT_EQ(refused_depth, 3);
  EXPECT_EQ(refused_size, 6);
  EXPECT_GT(compared, 0);
}

}  // namespace
}  // namespace exactvq
