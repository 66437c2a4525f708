// The `float_ssim` and `float_ms_ssim` features: libvmaf 3.2.0's float SSIM and
// MS-SSIM on luma (float_ssim.c, float_ms_ssim.c), with its output names:
// float_ssim (with enable_lcs also float_ssim_l, _c, _s) and float_ms_ssim
// (with enable_lcs also float_ms_ssim_l_scale0..4, then _c_, then _s_). No
// option adds a suffix. The host half: the device's engine (engine.h) gives
// each frame's means, the feature the scores.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "metrics/feature.h"
#include "metrics/float_ssim/options.h"

namespace exactvq {

namespace float_ssim {

// The output names in libvmaf's order for these options.
std::vector<std::string> output_names(const SsimOptions& options);
std::vector<std::string> output_names(const MsSsimOptions& options);

}  // namespace float_ssim

// Throw DeviceError on a device without the engine (OpenCL for now), UsageError
// on options the device cannot take (fp64=emulate on CUDA), InputError on a
// picture the feature cannot score (float_ssim::check_ssim_input,
// check_ms_ssim_input).
std::unique_ptr<Feature> make_float_ssim_feature(const float_ssim::SsimOptions& options,
                                                 const FeatureContext& ctx);
std::unique_ptr<Feature> make_float_ms_ssim_feature(const float_ssim::MsSsimOptions& options,
                                                    const FeatureContext& ctx);

}  // namespace exactvq
