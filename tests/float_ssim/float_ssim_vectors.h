// The float_ssim / float_ms_ssim runs of libvmaf_vmaf_scores.json: the frames
// a run (or its --frame_cnt 1 rerun, or a single feature's probe) left.
#pragma once

#include <string>

#include "libvmaf_vmaf_vectors.h"
#include "metrics/float_ssim/options.h"

namespace exactvq::float_ssim::testing {

// The frames of a stored run node: its own when it succeeded, else its
// --frame_cnt 1 rerun's, else null.
inline const nlohmann::json* node_frames(const nlohmann::json& node) {
  if (node.at("rc").get<int>() == 0) return &node.at("frames");
  if (!node.contains("frame_cnt_1_workaround")) return nullptr;
  const nlohmann::json& w = node.at("frame_cnt_1_workaround");
  return w.at("rc").get<int>() == 0 ? &w.at("frames") : nullptr;
}

// The frames libvmaf gave `key` ("float_ssim", "float_ms_ssim") in `run`
// ("float_ssim_ms_ssim", "float_ssim_ctc"): the run's, else the probe's of that
// feature alone. Null where libvmaf gave none.
inline const nlohmann::json* stored_frames(const testing_vectors::VmafPair& p, const std::string& run,
                                           const std::string& key) {
  const nlohmann::json& node = p.info.at("runs").at(run);
  if (const nlohmann::json* f = node_frames(node)) return f;
  if (!node.contains("single_feature_probes")) return nullptr;
  const nlohmann::json& probes = node.at("single_feature_probes");
  return probes.contains(key) ? node_frames(probes.at(key)) : nullptr;
}

// The options of each stored run.
inline SsimOptions run_ssim_options(const std::string& run) {
  SsimOptions o;
  if (run == "float_ssim_ctc") {
    o.scale = 1;
    o.enable_db = true;
    o.clip_db = true;
  }
  return o;
}

inline const char* const kRuns[] = {"float_ssim_ms_ssim", "float_ssim_ctc"};

}  // namespace exactvq::float_ssim::testing
