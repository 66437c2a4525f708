// The `psnr_hvs` feature, on every device that has its engine: libvmaf's Xiph
// PSNR-HVS with its names (psnr_hvs_y, psnr_hvs_cb, psnr_hvs_cr, psnr_hvs). The
// engine (engine.h) gives each plane's binary32 error sum; the scores and
// decibels come from the same operations on the host for every device.
#pragma once

#include <memory>
#include <span>

#include "core/picture.h"
#include "metrics/feature.h"
#include "metrics/psnr_hvs/options.h"

namespace exactvq {

namespace psnr_hvs {

// Throws InputError naming the feature where the definition has no value or
// libvmaf refuses: monochrome input, more than kMaxBitdepth bits, or a plane
// under 8x8 samples (no block fits: 0 / 0).
void check_input(const VideoFormat& format);

// One frame's four outputs (outputs() order) from its three planes' error sums.
void frame_values(const VideoFormat& format, const float sums[3], std::span<double> out);

}  // namespace psnr_hvs

// Throws InputError (check_input), or DeviceError where the context's device has
// no psnr_hvs engine.
std::unique_ptr<Feature> make_psnr_hvs_feature(const psnr_hvs::PsnrHvsOptions& options,
                                               const FeatureContext& ctx);

}  // namespace exactvq
