// adm on the public vectors: every frame of every pair, every output, bit for
// bit against libvmaf's plain-C run (vmaf_v0.6.1_nosimd, default options) and
// its NEG-model run (vmaf_v0.6.1neg, adm_enhn_gain_limit=1, keys *_egl_1).
// The pairs libvmaf cannot score (pictures below 33x33: it crashes) get
// exactvq's documented InputError.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "core/error.h"
#include "libvmaf_vmaf_vectors.h"
#include "metrics/adm/adm_feature.h"
#include "metrics/adm/cpu/adm_simd.h"
#include "metrics/adm/reference.h"

namespace exactvq::adm {
namespace {

namespace fs = std::filesystem;
using testing_vectors::same_bits;

std::vector<Picture> read_all(const testing_vectors::VmafPair& p, const fs::path& path) {
  std::vector<Picture> pics;
  auto src = open_video(path.string(), p.raw);
  Picture pic;
  while (src->read_frame(pic)) pics.push_back(pic);
  return pics;
}

std::vector<double> reported(const AdmScores& s) {
  return {s.adm2, s.aim, s.adm3, s.scale[0], s.scale[1], s.scale[2], s.scale[3]};
}

// The NEG run used libvmaf's SIMD, which differs from its C code where the
// main run's simd_vs_c says so; there the C values (libvmaf's vmaf
// --cpumask 0xffffffff --feature adm=adm_enhn_gain_limit=1) stand in.
struct CValue {
  const char* pair;
  int frame;
  const char* key;
  double value;
};
constexpr CValue kNegRunCValues[] = {
    {"p16_420_576x324_random_noise", 1, "integer_aim_egl_1", 0.00016859188836844397},
    {"p16_420_576x324_random_noise", 1, "integer_adm3_egl_1", 0.9799929333976987},
};

bool simd_differs(const nlohmann::json& info, int frame, const std::string& metric) {
  const nlohmann::json& s = info.at("simd_vs_c");
  if (!s.contains("differences")) return false;
  for (const auto& d : s.at("differences"))
    if (d.at("frame").get<int>() == frame && d.at("metric").get<std::string>() == metric)
      return true;
  return false;
}

TEST(AdmVectors, EveryFrameEqualsLibvmafBitForBit) {
  if (!fs::exists(testing_vectors::kVmafVectors))
    GTEST_SKIP() << "no " << testing_vectors::kVmafVectors << ": vectors skipped";
  struct Run {
    const char* name;
    const char* options;
  };
  const Run runs[] = {{"vmaf_v0.6.1_nosimd", "adm"}, {"vmaf_v0.6.1neg", "adm=egl=1"}};
  int compared = 0, differing = 0, refused = 0;
  for (const auto& pair : testing_vectors::load_vmaf_pairs()) {
    const nlohmann::json& f = pair.info.at("format");
    const int w = f.at("width").get<int>(), h = f.at("height").get<int>();
    const int bitdepth = f.at("bitdepth").get<int>();
    const std::vector<Picture> ref = read_all(pair, pair.ref), dist = read_all(pair, pair.dist);
    ASSERT_EQ(ref.size(), dist.size()) << pair.name;
    for (const Run& run : runs) {
      const AdmOptions o = parse_adm_options(parse_feature_spec(run.options));
      const std::vector<std::string> keys = adm_output_names(o);
      const nlohmann::json& r = pair.info.at("runs").at(run.name);
      const nlohmann::json* frames = nullptr;
      if (r.at("rc").get<int>() == 0)
        frames = &r.at("frames");
      else if (r.contains("frame_cnt_1_workaround") &&
               r.at("frame_cnt_1_workaround").at("rc").get<int>() == 0)
        frames = &r.at("frame_cnt_1_workaround").at("frames");
      if (w < kMinAdmSide || h < kMinAdmSide) {
        // libvmaf crashed (rc -11) on these, even for one frame: exactvq refuses them.
        EXPECT_EQ(frames, nullptr) << pair.name << ": libvmaf scored a picture exactvq refuses";
        EXPECT_THROW(adm_reference(ref[0].plane(0), dist[0].plane(0), bitdepth, o), InputError)
            << pair.name;
        EXPECT_THROW(check_adm_size(w, h, "vectors"), InputError) << pair.name;
        ++refused;
        continue;
      }
      ASSERT_NE(frames, nullptr) << pair.name << " " << run.name << " has no frames";
      for (const auto& frame : *frames) {
        const int i = frame.at("frameNum").get<int>();
        ASSERT_LT(size_t(i), ref.size());
        const std::vector<double> mine =
            reported(adm_reference(ref[i].plane(0), dist[i].plane(0), bitdepth, o));
        // The feature's SIMD rows (cpu/adm_simd.h) must give the same values.
        const std::vector<double> simd = reported(
            adm_scores(ref[i].plane(0), dist[i].plane(0), bitdepth, o, cpu::simd_row_kernels()));
        for (size_t k = 0; k < keys.size(); ++k, ++compared) {
          double want = testing_vectors::stored_value(frame.at(keys[k]));
          const std::string plain = keys[k].substr(0, keys[k].size() - key_suffix(o).size());
          if (std::string(run.name) == "vmaf_v0.6.1neg" && simd_differs(pair.info, i, plain)) {
            bool found = false;
            for (const CValue& c : kNegRunCValues)
              if (pair.name == c.pair && i == c.frame && keys[k] == c.key) {
                want = c.value;
                found = true;
              }
            ASSERT_TRUE(found) << "no C value for the SIMD run's " << pair.name << " frame " << i
                               << " " << keys[k];
          }
          const bool same = std::isnan(want) ? std::isnan(mine[k]) : same_bits(mine[k], want);
          const bool simd_same = std::isnan(want) ? std::isnan(simd[k]) : same_bits(simd[k], want);
          if (!same || !simd_same) ++differing;
          EXPECT_TRUE(same) << pair.name << " " << run.name << " frame " << i << " " << keys[k]
                            << ": " << fmt::format("{:.17g} vs libvmaf {:.17g}", mine[k], want);
          EXPECT_TRUE(simd_same) << pair.name << " " << run.name << " frame " << i << " " << keys[k]
                                 << ": SIMD rows "
                                 << fmt::format("{:.17g} vs libvmaf {:.17g}", simd[k], want);
        }
      }
    }
  }
  std::printf(
      "adm vectors: %d values compared (scalar and SIMD rows), %d differing; "
      "%d pair runs refused (below %dx%d)\n",
      compared, differing, refused, kMinAdmSide, kMinAdmSide);
  EXPECT_GT(compared, 0);
}

}  // namespace
}  // namespace exactvq::adm
