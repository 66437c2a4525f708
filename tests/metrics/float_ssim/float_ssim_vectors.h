// The float_ssim / float_ms_ssim runs of libvmaf_vmaf_scores.json: the frames
// a run (or its --frame_cnt 1 rerun, or a single feature's probe) left.
#pragma once

#include <string>

#include "libvmaf_vmaf_vectors.h"
#include "metrics/float_ssim/options.h"

namespace exactvq::float_ssim::testing {

// A stored run that left frames: the node holding them (frames, pooled) and
// whether it is the --frame_cnt 1 rerun.
struct StoredRun {
  const nlohmann::json* node = nullptr;
  bool frame_cnt_1 = false;
  const nlohmann::json& frames() const { return node->at("frames"); }
  explicit operator bool() const { return node != nullptr; }
};

// A stored run node's own result when it succeeded, else its --frame_cnt 1 rerun's.
inline StoredRun node_run(const nlohmann::json& node) {
  if (node.at("rc").get<int>() == 0) return {&node, false};
  if (!node.contains("frame_cnt_1_workaround")) return {};
  const nlohmann::json& w = node.at("frame_cnt_1_workaround");
  return w.at("rc").get<int>() == 0 ? StoredRun{&w, true} : StoredRun{};
}

// What libvmaf gave `key` ("float_ssim", "float_ms_ssim") in `run`
// ("float_ssim_ms_ssim", "float_ssim_ctc"): the run's, else the probe's of that
// feature alone; empty where libvmaf gave nothing.
inline StoredRun stored_run(const testing_vectors::VmafPair& p, const std::string& run,
                            const std::string& key) {
  const nlohmann::json& node = p.info.at("runs").at(run);
  if (StoredRun r = node_run(node)) return r;
  if (!node.contains("single_feature_probes")) return {};
  const nlohmann::json& probes = node.at("single_feature_probes");
  return probes.contains(key) ? node_run(probes.at(key)) : StoredRun{};
}

// The stored frames only (null where none).
inline const nlohmann::json* stored_frames(const testing_vectors::VmafPair& p,
                                           const std::string& run, const std::string& key) {
  const StoredRun r = stored_run(p, run, key);
  return r ? &r.frames() : nullptr;
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
