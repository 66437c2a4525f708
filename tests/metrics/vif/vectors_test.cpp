// vif on ../shared/vectors: libvmaf's values bit for bit, every frame of every
// pair it scored (the NEG run with vif_enhn_gain_limit=1); on the pairs it
// could not score, exactvq's documented behaviour, and libvmaf's vif alone
// where the oracle binary runs it.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "libvmaf_vmaf_vectors.h"
#include "metrics/vif/cpu/vif_simd.h"
#include "metrics/vif/reference.h"
#include "metrics/vif/vif_feature.h"
#include "vif_clips.h"

namespace exactvq::vif {
namespace {

namespace fs = std::filesystem;
using testing_vectors::same_bits;
using testing_vectors::stored_value;

// The frames a run left: its own, else its --frame_cnt 1 rerun's.
const nlohmann::json* run_frames(const testing_vectors::VmafPair& pair, const std::string& run) {
  if (const nlohmann::json* f = pair.frames(run)) return f;
  const nlohmann::json& r = pair.info.at("runs").at(run);
  if (!r.contains("frame_cnt_1_workaround")) return nullptr;
  const nlohmann::json& w = r.at("frame_cnt_1_workaround");
  return w.at("rc").get<int>() == 0 ? &w.at("frames") : nullptr;
}

TEST(VifVectors, EqualLibvmafBitForBit) {
  if (!fs::exists(testing_vectors::kVmafVectors))
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  int compared = 0, differing = 0;
  for (const auto& pair : testing_vectors::load_vmaf_pairs()) {
    const std::vector<Picture> refs = vif_testing::read_pictures(pair.ref, pair.raw);
    const std::vector<Picture> dists = vif_testing::read_pictures(pair.dist, pair.raw);
    for (const char* run : {"vmaf_v0.6.1_nosimd", "vmaf_v0.6.1neg"}) {
      const nlohmann::json* frames = run_frames(pair, run);
      if (!frames) continue;
      VifOptions o;
      if (std::string(run) == "vmaf_v0.6.1neg") o.gain_limit = 1.0;
      const std::vector<std::string> names = output_names(o);
      for (const nlohmann::json& frame : *frames) {
        const size_t i = frame.at("frameNum").get<size_t>();
        ASSERT_LT(i, refs.size()) << pair.name;
        const Picture& r = refs[i];
        // The reference and the SIMD path (cpu/vif_simd.h) alike.
        for (const auto& [engine, s] :
             {std::pair{"reference",
                        vif_reference(r.plane(0), dists[i].plane(0), r.format.bitdepth, o)},
              std::pair{"simd",
                        cpu::vif_simd(r.plane(0), dists[i].plane(0), r.format.bitdepth, o)}})
          for (size_t k = 0; k < names.size(); ++k, ++compared) {
            const double want = stored_value(frame.at(names[k]));
            if (!same_bits(s.scale[k], want)) ++differing;
            EXPECT_TRUE(same_bits(s.scale[k], want))
                << engine << ": " << pair.name << " " << run << " frame " << i << " " << names[k]
                << ": " << s.scale[k] << " vs libvmaf " << want;
          }
      }
    }
  }
  std::printf("vif vectors: %d values compared, %d differing\n", compared, differing);
  EXPECT_GE(compared, 296);
}

// The pairs libvmaf's VMAF run crashed on (its adm, or its reader on odd 4:2:0).
TEST(VifVectors, PairsLibvmafCouldNotScore) {
  if (!fs::exists(testing_vectors::kVmafVectors))
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  const bool oracle = fs::exists(testing_vectors::kLibvmafBinary);
  if (!oracle)
    std::printf("no libvmaf binary at %s: values not compared\n",
                testing_vectors::kLibvmafBinary.c_str());
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "vif_vectors";
  fs::create_directories(dir);
  int scored = 0, refused = 0, compared = 0;
  for (const auto& pair : testing_vectors::load_vmaf_pairs()) {
    if (run_frames(pair, "vmaf_v0.6.1_nosimd")) continue;
    const std::vector<Picture> refs = vif_testing::read_pictures(pair.ref, pair.raw);
    const std::vector<Picture> dists = vif_testing::read_pictures(pair.dist, pair.raw);
    const VideoFormat& f = refs.at(0).format;
    VifOptions o;
    o.debug = true;
    if (f.height < kMinHeight || f.width < 2) {
      // libvmaf's vif crashes (fewer than 8 rows) or reads stale columns (1 column).
      EXPECT_THROW(vif_reference(refs[0].plane(0), dists[0].plane(0), f.bitdepth, o), InputError)
          << pair.name;
      ++refused;
      continue;
    }
    // libvmaf's reader takes floor(W/2) chroma: only frame 0 of odd 4:2:0 reads right.
    const bool odd420 = f.chroma == ChromaFormat::k420 && (f.width % 2 || f.height % 2);
    std::vector<nlohmann::ordered_json> want;
    if (oracle)
      want =
          vif_testing::libvmaf_frames(pair.ref, pair.dist, pair.raw, "vif=debug=true",
                                      dir / (pair.name + ".json"), odd420 ? "--frame_cnt 1" : "");
    const std::vector<std::string> names = output_names(o);
    for (size_t i = 0; i < (odd420 ? 1 : refs.size()); ++i) {
      const VifScores s = vif_reference(refs[i].plane(0), dists[i].plane(0), f.bitdepth, o);
      if (!oracle) continue;
      ASSERT_LT(i, want.size()) << pair.name << ": libvmaf failed";
      const double mine[] = {s.scale[0],     s.scale[1],     s.scale[2],     s.scale[3],
                             s.vif,          s.num,          s.den,          s.num_scale[0],
                             s.den_scale[0], s.num_scale[1], s.den_scale[1], s.num_scale[2],
                             s.den_scale[2], s.num_scale[3], s.den_scale[3]};
      for (size_t k = 0; k < names.size(); ++k, ++compared) {
        const auto& v = want[i].at(names[k]);
        if (v.is_null())
          EXPECT_TRUE(std::isnan(mine[k])) << pair.name << " frame " << i << " " << names[k];
        else
          EXPECT_TRUE(same_bits(mine[k], v.get<double>()))
              << pair.name << " frame " << i << " " << names[k] << ": " << mine[k] << " vs libvmaf "
              << v.get<double>();
      }
    }
    ++scored;
  }
  std::printf("vif on pairs libvmaf's VMAF could not score: %d values compared\n", compared);
  EXPECT_EQ(scored, 4);   // 17x9 (4:2:0 and 4:4:4), 8x8, 18x10
  EXPECT_EQ(refused, 3);  // 7x5, 1x1, 2x2
}

}  // namespace
}  // namespace exactvq::vif
