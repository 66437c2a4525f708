// The options of libvmaf's SpEED features (speed.c): speed_chroma and
// speed_temporal share one definition and most options, with libvmaf's
// names, aliases, defaults and ranges.
#pragma once

#include <string>

#include "metrics/feature_spec.h"
#include "metrics/fp64_mode.h"

namespace exactvq::speed {

enum class Feature { kChroma, kTemporal };

// libvmaf's prescale methods (vif_tools.c); the names are the option's values.
enum class ScaleMethod { kNearest, kBilinear, kBicubic, kLanczos4 };

struct SpeedOptions {
  Feature feature = Feature::kChroma;
  double kernelscale = 1.0;  // speed_kernelscale / ks, one of libvmaf's list
  double prescale = 1.0;     // speed_prescale / ps, [0.1, 4]
  ScaleMethod prescale_method = ScaleMethod::kNearest;  // speed_prescale_method / psm
  double sigma_nn = 0.29;                               // speed_sigma_nn / snn, [0.1, 2]
  double nn_floor = 0.0;                                // speed_nn_floor / nnf, [0, 1]
  double max_val = 1000.0;                              // speed_max_val / mxv, [0, 1000]
  int weight_var_mode = 0;    // speed_weight_var_mode / wvm, [0, 6]: chroma
  bool use_ref_diff = false;  // speed_use_ref_diff / urd: temporal
  // exactvq's own (no output name): how a CUDA device runs the binary64 steps.
  Fp64Mode fp64 = Fp64Mode::kAuto;
};

const char* feature_name(Feature f);  // "speed_chroma" or "speed_temporal"
const char* scale_method_name(ScaleMethod m);

// Throws UsageError naming the feature and option on an unknown key, a value
// libvmaf's parser refuses (out of range, not a number) or one its init
// refuses (a kernelscale not in its list, an unknown prescale method).
SpeedOptions parse_speed_options(Feature feature, const FeatureSpec& spec);

// What libvmaf appends to the output names under these options, e.g.
// "_mxv_45_nnf_0.1_snn_0.19_wvm_5".
std::string key_suffix(const SpeedOptions& o);

}  // namespace exactvq::speed
