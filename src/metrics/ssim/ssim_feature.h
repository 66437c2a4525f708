// The `ssim` feature, on every device: spec/ssim.md on luma, and on chroma when
// asked. Its host half (names, weights, scores, decibels) is here; the device's
// engine (engine.h) computes each plane's sum of terms.
#pragma once

#include <memory>

#include "metrics/feature.h"
#include "metrics/ssim/options.h"

namespace exactvq {

// Throws UsageError for chroma=true on monochrome input, DeviceError when the
// context's device has no ssim engine or cannot make one.
std::unique_ptr<Feature> make_ssim_feature(const ssim::SsimOptions& options,
                                           const FeatureContext& ctx);

}  // namespace exactvq
