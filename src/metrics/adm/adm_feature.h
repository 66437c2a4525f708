// The `adm` feature: libvmaf's integer ADM (integer_adm.c) with its names and
// options. Per frame: integer_adm2, integer_aim, integer_adm3,
// integer_adm_scale0..3 (and with debug=true integer_adm, integer_adm_num,
// integer_adm_den and each scale's num and den), every name with the options'
// suffix (e.g. integer_adm2_egl_1). The integer sums come from the device's
// adm engine (engine.h), the scores from them on the host.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "metrics/adm/options.h"
#include "metrics/feature.h"

namespace exactvq {

// libvmaf's output names for these options, in its order.
std::vector<std::string> adm_output_names(const adm::AdmOptions& options);

// Throws DeviceError on a device without an adm engine, InputError for
// pictures below 33x33 (see adm/reference.h).
std::unique_ptr<Feature> make_adm_feature(const adm::AdmOptions& options,
                                          const FeatureContext& ctx);

}  // namespace exactvq
