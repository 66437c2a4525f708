// predict() against libvmaf's own CLI (shared/libvmaf/vmaf) on seeded random
// Y4M pairs: vmaf_4k_v0.6.1 (no public vector has it), and the model spec's
// path=, name=, enable_transform, disable_clip and EXTRACTOR.OPTION= items,
// each frame's prediction bit for bit from libvmaf's printed feature values.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "command_output.h"
#include "metrics/vmaf/model.h"
#include "metrics/vmaf/model_spec.h"
#include "metrics/vmaf/predict.h"
#include "model_test_support.h"

namespace exactvq::vmaf {
namespace {

using nlohmann::json;
using namespace exactvq::vmaf::model_testing;

struct PairRecipe {
  int width, height, bitdepth;
  bool chroma444;
  int noise;  // distortion amplitude in 8-bit steps; < 0: unrelated pictures
  unsigned seed;
};

void write_sample(std::ofstream& out, int v, int bitdepth) {
  if (bitdepth == 8) {
    out.put(static_cast<char>(v));
  } else {
    out.put(static_cast<char>(v & 0xff));
    out.put(static_cast<char>(v >> 8));
  }
}

// A smooth random picture per frame and a distorted copy; three frames.
void write_pair(const PairRecipe& r, const std::filesystem::path& ref_path,
                const std::filesystem::path& dist_path) {
  std::mt19937 rng(r.seed);
  const int max = (1 << r.bitdepth) - 1;
  const int scale = 1 << (r.bitdepth - 8);
  const int cw = r.chroma444 ? r.width : (r.width + 1) / 2;
  const int ch = r.chroma444 ? r.height : (r.height + 1) / 2;
  std::string tag = r.chroma444 ? "C444" : "C420jpeg";
  if (r.bitdepth > 8) tag = (r.chroma444 ? "C444p" : "C420p") + std::to_string(r.bitdepth);
  const std::string header = "YUV4MPEG2 W" + std::to_string(r.width) + " H" +
                             std::to_string(r.height) + " F25:1 Ip A1:1 " + tag + "\n";
  std::ofstream ref(ref_path, std::ios::binary), dist(dist_path, std::ios::binary);
  ref << header;
  dist << header;
  std::uniform_int_distribution<int> any(0, max);
  for (int frame = 0; frame < 3; ++frame) {
    ref << "FRAME\n";
    dist << "FRAME\n";
    const int phase = any(rng);
    for (int plane = 0; plane < 3; ++plane) {
      const int w = plane == 0 ? r.width : cw;
      const int h = plane == 0 ? r.height : ch;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const int base = ((x * 7 + y * 3 + phase + frame * 5) % 200 + 20) * scale;
          const int texture = std::uniform_int_distribution<int>(-12, 12)(rng) * scale;
          const int a = std::clamp(base + texture, 0, max);
          int b = any(rng);
          if (r.noise >= 0) {
            const int n = r.noise * scale;
            b = std::clamp(a + std::uniform_int_distribution<int>(-n, n)(rng), 0, max);
          }
          write_sample(ref, a, r.bitdepth);
          write_sample(dist, b, r.bitdepth);
        }
    }
  }
}

// vmaf_v0.6.1 with its score_transform replaced, written beside the pairs:
// the knots (a first knot at x = 0, a horizontal segment, points beyond both
// ends) and the polynomial with a missing term, which no bundled model uses.
std::filesystem::path write_transform_model(const std::filesystem::path& dir, const char* name,
                                            const json& transform) {
  json model = json::parse(read_file(kSharedModels / "vmaf_v0.6.1.json"));
  model["model_dict"]["score_transform"] = transform;
  const std::filesystem::path path = dir / name;
  std::ofstream(path) << model.dump(2);
  return path;
}

std::vector<std::string> oracle_specs(const std::filesystem::path& dir) {
  const json knots = {
      {"enabled", true},
      {"knots", {{0.0, 0.0}, {30.0, 40.0}, {60.0, 60.0}, {80.0, 60.0}, {100.0, 100.0}}},
      {"out_lte_in", "true"}};
  const json polynomial = {{"enabled", true},
                           {"p0", 1.5},
                           {"p2", 0.001},
                           {"knots", {{10.0, 5.0}, {90.0, 95.0}}},
                           {"out_gte_in", "false"}};
  return {
      "version=vmaf_4k_v0.6.1:name=vmaf_4k",
      "path=" + (kSharedModels / "vmaf_4k_v0.6.1.json").string() + ":name=from_path",
      "version=vmaf_v0.6.1",
      "version=vmaf_v0.6.1:enable_transform:name=transformed",
      "version=vmaf_v0.6.1:disable_clip:name=unclipped",
      "version=vmaf_v0.6.1neg:name=neg",
      "version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=1.0:adm.adm_enhn_gain_limit=1.5:name=overloaded",
      "path=" + write_transform_model(dir, "knots.json", knots).string() + ":name=knots",
      // Renamed inputs (sorted options, bools as "_alias"); adm's csf mode 1 gives NaN.
      "version=vmaf_v0.6.1:adm.adm_skip_scale0=true:adm.adm_csf_mode=1:adm.adm_dlm_weight=0.25:"
      "motion.motion_force_zero=true:vif.vif_skip_scale0=true:name=renamed",
      "path=" + write_transform_model(dir, "polynomial.json", polynomial).string() +
          ":name=polynomial:disable_clip=true",
  };
}

TEST(ModelOracle, PredictionsMatchLibvmafCli) {
  if (!std::filesystem::exists(kOracle)) GTEST_SKIP() << "no libvmaf oracle at " << kOracle;
  const std::filesystem::path tmp = std::filesystem::path(EXACTVQ_TEST_TMP) / "vmaf_model_oracle";
  std::filesystem::create_directories(tmp);
  const std::vector<std::string> kSpecs = oracle_specs(tmp);
  std::vector<Model> models;
  for (const std::string& spec : kSpecs) models.push_back(load_model(parse_model_spec(spec)));
  EXPECT_EQ(models[0].name, "vmaf_4k");
  EXPECT_EQ(models[2].name, "vmaf");
  EXPECT_EQ(models[6].features[0].output_key, "integer_adm2_egl_1.5");
  EXPECT_EQ(models[6].features[2].output_key, "integer_vif_scale0_egl_1");
  EXPECT_EQ(models[8].features[0].output_key, "integer_adm2_csf_1_dlmw_0.25_ssz");
  EXPECT_EQ(models[8].features[1].output_key, "integer_motion2_force_0");
  EXPECT_EQ(models[8].features[2].output_key, "integer_vif_scale0_ssclz");

  const std::vector<PairRecipe> recipes = {
      {64, 48, 8, false, 30, 11}, {96, 72, 8, false, 70, 12},  {64, 36, 8, false, -1, 13},
      {41, 23, 8, true, 45, 14},  {80, 60, 10, false, 55, 15}, {48, 40, 12, true, 90, 16},
      {72, 54, 8, false, 0, 17},  {128, 96, 10, true, 20, 18}, {50, 30, 8, true, 120, 19}};
  int compared = 0, differing = 0;
  for (const PairRecipe& r : recipes) {
    SCOPED_TRACE(::testing::Message() << "pair seed " << r.seed << " " << r.width << "x" << r.height
                                      << " " << r.bitdepth << "-bit");
    const std::filesystem::path ref = tmp / ("ref" + std::to_string(r.seed) + ".y4m");
    const std::filesystem::path dist = tmp / ("dist" + std::to_string(r.seed) + ".y4m");
    const std::filesystem::path out = tmp / ("out" + std::to_string(r.seed) + ".json");
    write_pair(r, ref, dist);
    std::string cmd = "VMAF_JSON_FULL_PRECISION=1 '" + kOracle.string() + "' -r '" + ref.string() +
                      "' -d '" + dist.string() + "' --json -q -o '" + out.string() + "'";
    for (const std::string& spec : kSpecs) cmd += " --model '" + spec + "'";
    testing_commands::command_output(cmd + " 2>&1");
    const json result = read_scores_json(read_file(out), out.string());
    for (const json& frame : result.at("frames")) {
      const json& metrics = frame.at("metrics");
      for (std::size_t m = 0; m < models.size(); ++m) {
        const Model& model = models[m];
        std::vector<double> inputs;
        for (const ModelFeature& f : model.features) {
          ASSERT_TRUE(metrics.contains(f.output_key)) << kSpecs[m] << ": no " << f.output_key;
          inputs.push_back(score_value(metrics.at(f.output_key)));
        }
        ASSERT_TRUE(metrics.contains(model.name)) << kSpecs[m] << ": no " << model.name;
        const double expected = score_value(metrics.at(model.name));
        const double got = predict(model, inputs);
        ++compared;
        if (!same_bits(got, expected)) {
          ++differing;
          ADD_FAILURE() << kSpecs[m] << " frame " << frame.at("frameNum") << ": predict " << got
                        << " (0x" << std::hex << std::bit_cast<std::uint64_t>(got) << "), libvmaf "
                        << std::dec << expected << " (0x" << std::hex
                        << std::bit_cast<std::uint64_t>(expected) << ")" << std::dec;
        }
      }
    }
  }
  std::printf("compared %d predictions with libvmaf's: %d differ\n", compared, differing);
  EXPECT_EQ(differing, 0);
}

}  // namespace
}  // namespace exactvq::vmaf
