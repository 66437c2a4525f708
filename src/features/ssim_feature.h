// The `ssim` feature: spec/ssim.md on luma, and on chroma when asked.
#pragma once

#include "features/feature.h"

namespace exactvq {

enum class SumMode { kExact, kRaster };

struct SsimOptions {
  SumMode mode = SumMode::kExact;
  bool enable_db = false;
  bool clip_db = false;
  bool chroma = false;
};

// Throws UsageError naming the option on an unknown key or a bad value.
SsimOptions parse_ssim_options(const FeatureSpec& spec);

std::unique_ptr<Feature> make_ssim_feature(const SsimOptions& options, const FeatureContext& ctx);

}  // namespace exactvq
