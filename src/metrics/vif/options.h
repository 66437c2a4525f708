// The `vif` feature's options: libvmaf's integer vif (integer_vif.c), with its
// names, aliases, defaults and ranges.
#pragma once

#include <string>

#include "metrics/feature_spec.h"
#include "metrics/fp64_mode.h"

namespace exactvq::vif {

inline constexpr double kDefaultGainLimit = 100.0;

struct VifOptions {
  bool debug = false;                     // also integer_vif, its num/den and each scale's
  double gain_limit = kDefaultGainLimit;  // vif_enhn_gain_limit / egl, [1, 100]
  bool skip_scale0 = false;               // vif_skip_scale0 / ssclz: scale 0 reads 0
  // exactvq's own: how a CUDA device runs the gain steps (metrics/fp64_mode.h);
  // changes no value and no name.
  Fp64Mode fp64 = Fp64Mode::kAuto;
};

// Throws UsageError naming the feature, key and value on an unknown key or a
// value out of range.
VifOptions parse_vif_options(const FeatureSpec& spec);

// What libvmaf appends to the output names under these options, e.g. "_egl_1".
std::string key_suffix(const VifOptions& o);

}  // namespace exactvq::vif
