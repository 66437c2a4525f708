// The `vif` feature: libvmaf's integer vif (integer_vif.c) on luma, with its
// names and options: integer_vif_scale0..3, and with debug=true integer_vif,
// integer_vif_num, integer_vif_den and each scale's num and den, every name
// with libvmaf's option suffix (e.g. integer_vif_scale0_egl_1). The level
// sums come from the device's vif engine (engine.h), the scores from them on
// the host.
#pragma once

#include <memory>

#include "metrics/feature.h"
#include "metrics/vif/options.h"

namespace exactvq {

namespace vif {

// The output names in libvmaf's order for these options.
std::vector<std::string> output_names(const VifOptions& options);

}  // namespace vif

// Throws DeviceError on a device without a vif engine, InputError on a
// picture size vif cannot score (vif::check_vif_size).
std::unique_ptr<Feature> make_vif_feature(const vif::VifOptions& options,
                                          const FeatureContext& ctx);

}  // namespace exactvq
