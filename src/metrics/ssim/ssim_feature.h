// The `ssim` feature: spec/ssim.md on luma, and on chroma when asked.
#pragma once

#include "metrics/feature.h"

namespace exactvq {

enum class SumMode { kExact, kRaster };

// How a GPU forms the binary64 term (same bits either way): native fp64, or
// emulated on integers (softfp/) for devices with slow or no fp64; auto picks
// by the device's fp64 rate. The CPU always uses native binary64.
enum class Fp64Mode { kAuto, kNative, kEmulate };

struct SsimOptions {
  SumMode mode = SumMode::kExact;
  bool enable_db = false;
  bool clip_db = false;
  bool chroma = false;
  Fp64Mode fp64 = Fp64Mode::kAuto;
};

// Throws UsageError naming the option on an unknown key or a bad value.
SsimOptions parse_ssim_options(const FeatureSpec& spec);

std::unique_ptr<Feature> make_ssim_feature(const SsimOptions& options, const FeatureContext& ctx);

}  // namespace exactvq
