// predict() on libvmaf's own feature values from the public vectors gives the
// "vmaf" libvmaf printed, bit for bit, for every pair and frame it scored.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "metrics/vmaf/model.h"
#include "metrics/vmaf/predict.h"
#include "model_test_support.h"

namespace exactvq::vmaf {
namespace {

using nlohmann::json;
using namespace exactvq::vmaf::model_testing;

// The frames a run printed: its own, or those of its --frame_cnt 1 rerun where
// the full run crashed.
const json* scored_frames(const json& run) {
  if (run.value("rc", -1) == 0 && run.contains("frames")) return &run.at("frames");
  const auto w = run.find("frame_cnt_1_workaround");
  if (w != run.end() && w->is_object() && w->value("rc", -1) == 0 && w->contains("frames"))
    return &w->at("frames");
  return nullptr;
}

TEST(PredictVectors, EveryScoredFrameBitForBit) {
  if (!std::filesystem::exists(kVmafVectors)) GTEST_SKIP() << "no " << kVmafVectors;
  const json all = read_scores_json(read_file(kVmafVectors), kVmafVectors.string());
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"vmaf_v0.6.1_nosimd", "vmaf_v0.6.1"},
      {"vmaf_v0.6.1", "vmaf_v0.6.1"},
      {"vmaf_v0.6.1neg", "vmaf_v0.6.1neg"}};
  int compared = 0, differing = 0, runs_used = 0;
  for (const auto& [run_name, version] : runs) {
    const Model model = builtin_model(version);
    for (const auto& [pair_name, pair] : all.at("pairs").items()) {
      const auto run = pair.at("runs").find(run_name);
      if (run == pair.at("runs").end()) continue;
      const json* frames = scored_frames(*run);
      if (frames == nullptr) continue;
      ++runs_used;
      for (const json& frame : *frames) {
        std::vector<double> inputs;
        for (const ModelFeature& f : model.features) {
          ASSERT_TRUE(frame.contains(f.output_key))
              << pair_name << " " << run_name << ": no " << f.output_key;
          inputs.push_back(score_value(frame.at(f.output_key)));
        }
        const double expected = score_value(frame.at("vmaf"));
        const double got = predict(model, inputs);
        ++compared;
        if (!same_bits(got, expected)) {
          ++differing;
          ADD_FAILURE() << pair_name << " " << run_name << " frame " << frame.at("frameNum")
                        << ": predict " << got << " (0x" << std::hex
                        << std::bit_cast<std::uint64_t>(got) << "), libvmaf " << std::dec
                        << expected << " (0x" << std::hex << std::bit_cast<std::uint64_t>(expected)
                        << ")" << std::dec;
        }
      }
    }
  }
  std::printf("compared %d vmaf values over %d runs: %d differ\n", compared, runs_used, differing);
  EXPECT_GT(compared, 100);
  EXPECT_EQ(differing, 0);
}

}  // namespace
}  // namespace exactvq::vmaf
