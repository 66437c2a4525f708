// adm under VMAF v1.0.16's options (the Barten-Watson blended CSF, adm3 with
// dlm_weight 0.7, noise_weight 0.02, min_val 0.5, no enhancement gain) on the
// public vectors: every per-frame adm key of libvmaf's eight v1 model runs
// (libvmaf_catalogue_scores.json), bit for bit, wherever the run is
// perturb-stable. The runs' other features (cambi, speed_chroma, motion) are
// other tests'.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "app/score_run.h"
#include "libvmaf_catalogue_vectors.h"

namespace exactvq {
namespace {

namespace fs = std::filesystem;
using testing_vectors::same_bits;
using testing_vectors::stored_value;

struct V1Run {
  const char* name;
  const char* geometry;  // the model's adm_norm_view_dist and adm_ref_display_height
};

// The SDR and HFR models share their adm options.
constexpr V1Run kRuns[] = {
    {"vmaf_v1.0.16_3d0h", "adm_norm_view_dist=3:adm_ref_display_height=1080"},
    {"vmaf_v1.0.16_5d0h", "adm_norm_view_dist=5:adm_ref_display_height=1080"},
    {"vmaf_v1.0.16_3d0h_2160", "adm_norm_view_dist=3:adm_ref_display_height=2160"},
    {"vmaf_v1.0.16_1d5h_2160", "adm_norm_view_dist=1.5:adm_ref_display_height=2160"},
    {"vmaf_v1.0.16_hfr_3d0h", "adm_norm_view_dist=3:adm_ref_display_height=1080"},
    {"vmaf_v1.0.16_hfr_5d0h", "adm_norm_view_dist=5:adm_ref_display_height=1080"},
    {"vmaf_v1.0.16_hfr_3d0h_2160", "adm_norm_view_dist=3:adm_ref_display_height=2160"},
    {"vmaf_v1.0.16_hfr_1d5h_2160", "adm_norm_view_dist=1.5:adm_ref_display_height=2160"},
};

TEST(AdmV1Vectors, EveryFrameEqualsLibvmafBitForBit) {
  if (!fs::exists(testing_vectors::kCatalogueVectors))
    GTEST_SKIP() << "no " << testing_vectors::kCatalogueVectors << ": vectors skipped";
  int compared = 0, differing = 0, runs = 0;
  for (const auto& pair : testing_vectors::load_catalogue_pairs()) {
    for (const V1Run& run : kRuns) {
      const nlohmann::json* frames = testing_vectors::stable_frames(pair, run.name);
      if (frames == nullptr) continue;
      ++runs;
      RunOptions o;
      o.ref_path = pair.ref.string();
      o.dist_path = pair.dist.string();
      o.raw = pair.raw;
      o.features = {parse_feature_spec(
          fmt::format("adm=adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_noise_weight=0.02:"
                      "adm_min_val=0.5:adm_csf_mode=2:{}",
                      run.geometry))};
      const ScoreReport r = score_videos(o);
      ASSERT_EQ(r.frame_numbers.size(), frames->size()) << pair.name << " " << run.name;
      int keys = 0;
      for (const auto& column : r.features) {
        if (!(*frames)[0].contains(column.name)) continue;
        ++keys;
        for (size_t i = 0; i < frames->size(); ++i, ++compared) {
          const double want = stored_value((*frames)[i].at(column.name));
          const bool same = same_bits(column.values[i], want);
          if (!same) ++differing;
          EXPECT_TRUE(same) << pair.name << " " << run.name << " frame " << i << " " << column.name
                            << ": "
                            << fmt::format("{:.17g} vs libvmaf {:.17g}", column.values[i], want);
        }
      }
      // adm2, aim, adm3 and the four scales, under libvmaf's key for these options.
      EXPECT_EQ(keys, 7) << pair.name << " " << run.name;
    }
  }
  std::printf("adm v1 vectors: %d runs, %d values compared, %d differing\n", runs, compared,
              differing);
  EXPECT_GT(compared, 1000);
}

}  // namespace
}  // namespace exactvq
