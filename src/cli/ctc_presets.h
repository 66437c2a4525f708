// libvmaf's presets --aom_ctc and --nflx_ctc (tools/cli_parse.c): the models and
// features each version adds, as `vmaf` sets them.
#pragma once

#include <string>
#include <vector>

namespace exactvq {

// The run's model specs and feature specs in command-line order, which a preset
// extends where it occurs.
struct CliScoreList {
  std::vector<std::string> models;    // model specs (vmaf/model_spec.h)
  std::vector<std::string> features;  // feature specs ("psnr=enable_apsnr=true")
  // Set by --aom_ctc v6.0 and later: libvmaf then accepts inputs of different bit
  // depths (and reads both at the larger).
  bool common_bitdepth = false;
};

// The versions each preset knows, oldest first.
const std::vector<std::string>& aom_ctc_versions();
const std::vector<std::string>& nflx_ctc_versions();

// --aom_ctc VERSION (v1.0 .. v7.0) and --nflx_ctc VERSION (v1.0): appends the
// preset's models and features to `list` as libvmaf does (v7.0 replaces the first
// float_ssim already listed). Throws UsageError naming an unknown version.
void apply_aom_ctc(const std::string& version, CliScoreList& list);
void apply_nflx_ctc(const std::string& version, CliScoreList& list);

}  // namespace exactvq
