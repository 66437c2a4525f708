// float_ssim and float_ms_ssim on ../shared/vectors: every value libvmaf 3.2.0
// gave, every frame, both runs (defaults, and the AOM CTC float_ssim), bit for
// bit through the scalar reference; where libvmaf refused (MS-SSIM under 176
// pixels), exactvq's InputError.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "metrics/float_ssim/float_ssim_vectors.h"
#include "metrics/float_ssim/reference.h"
#include "metrics/vif/vif_clips.h"

namespace exactvq::float_ssim {
namespace {

namespace fs = std::filesystem;
using testing_vectors::same_bits;
using testing_vectors::stored_value;

// NaN where libvmaf wrote null, else the same bits.
bool same_value(double mine, const nlohmann::json& stored) {
  return stored.is_null() ? std::isnan(mine) : same_bits(mine, stored_value(stored));
}

TEST(FloatSsimVectors, EqualLibvmafBitForBit) {
  if (!fs::exists(testing_vectors::kVmafVectors))
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  int compared = 0, differing = 0, refused = 0, nan = 0;
  for (const auto& pair : testing_vectors::load_vmaf_pairs()) {
    const std::vector<Picture> refs = vif_testing::read_pictures(pair.ref, pair.raw);
    const std::vector<Picture> dists = vif_testing::read_pictures(pair.dist, pair.raw);
    const VideoFormat& f = refs.at(0).format;
    for (const char* run : testing::kRuns) {
      const SsimOptions so = testing::run_ssim_options(run);
      if (const nlohmann::json* frames = testing::stored_frames(pair, run, "float_ssim"))
        for (const nlohmann::json& frame : *frames) {
          const size_t i = frame.at("frameNum").get<size_t>();
          ASSERT_LT(i, refs.size()) << pair.name;
          const double mine =
              float_ssim_reference(refs[i].plane(0), dists[i].plane(0), f.bitdepth, so).ssim;
          const bool same = same_value(mine, frame.at("float_ssim"));
          differing += !same;
          nan += frame.at("float_ssim").is_null();
          ++compared;
          EXPECT_TRUE(same) << pair.name << " " << run << " frame " << i << " float_ssim: " << mine
                            << " vs libvmaf " << frame.at("float_ssim");
        }
      if (std::string(run) != "float_ssim_ms_ssim") continue;
      const nlohmann::json* frames = testing::stored_frames(pair, run, "float_ms_ssim");
      if (!frames) {
        // libvmaf refused: so does exactvq, naming the size.
        EXPECT_TRUE(f.width < kMsSsimMinSide || f.height < kMsSsimMinSide) << pair.name;
        EXPECT_THROW(float_ms_ssim_reference(refs[0].plane(0), dists[0].plane(0), f.bitdepth, {}),
                     InputError)
            << pair.name;
        ++refused;
        continue;
      }
      for (const nlohmann::json& frame : *frames) {
        const size_t i = frame.at("frameNum").get<size_t>();
        ASSERT_LT(i, refs.size()) << pair.name;
        const double mine =
            float_ms_ssim_reference(refs[i].plane(0), dists[i].plane(0), f.bitdepth, {}).ms_ssim;
        const bool same = same_value(mine, frame.at("float_ms_ssim"));
        differing += !same;
        nan += frame.at("float_ms_ssim").is_null();
        ++compared;
        EXPECT_TRUE(same) << pair.name << " frame " << i << " float_ms_ssim: " << mine
                          << " vs libvmaf " << frame.at("float_ms_ssim");
      }
    }
  }
  std::printf(
      "float_ssim vectors: %d values compared (%d of them NaN), %d differing; %d MS-SSIM "
      "refusals\n",
      compared, nan, differing, refused);
  EXPECT_EQ(differing, 0);
  EXPECT_GE(compared, 100);
  EXPECT_EQ(refused, 7);  // the seven pairs under 176 pixels
}

}  // namespace
}  // namespace exactvq::float_ssim
