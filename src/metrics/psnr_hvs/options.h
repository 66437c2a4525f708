// The `psnr_hvs` feature's options and output names, libvmaf's
// (third_party/xiph/psnr_hvs.c): it takes no options.
#pragma once

#include <string>
#include <vector>

#include "metrics/feature_spec.h"

namespace exactvq::psnr_hvs {

struct PsnrHvsOptions {};

// Throws UsageError naming the key on any option (libvmaf's psnr_hvs has none).
PsnrHvsOptions parse_psnr_hvs_options(const FeatureSpec& spec);

// Per-frame outputs in libvmaf's order: psnr_hvs_y, psnr_hvs_cb, psnr_hvs_cr, psnr_hvs.
const std::vector<std::string>& output_names();

}  // namespace exactvq::psnr_hvs
