// The `adm` feature's options: libvmaf's integer_adm.c option table (names,
// aliases, defaults, ranges) and its output-name suffix rule.
#pragma once

#include <string>

#include "metrics/feature_spec.h"
#include "metrics/fp64_mode.h"

namespace exactvq::adm {

// The contrast sensitivity functions (adm_csf_mode): csf_factors.h, barten_csf.h.
enum class CsfMode {
  kWatson97 = 0,
  kBarten = 1,
  kBartenWatsonBlend = 2,
  kBartenWatsonBlendMae = 3
};

struct AdmOptions {
  bool debug = false;
  double csf_scale = 1.0;                 // adm_csf_scale / scf, [0, 50]
  double csf_diag_scale = 1.0;            // adm_csf_diag_scale / scfd, [0, 50]
  double dlm_weight = 0.5;                // adm_dlm_weight / dlmw, [0, 1]
  double enhn_gain_limit = 100.0;         // adm_enhn_gain_limit / egl, [1, 100]
  double norm_view_dist = 3.0;            // adm_norm_view_dist / nvd, [0.75, 24]
  int ref_display_height = 1080;          // adm_ref_display_height / rdh, [1, 4320]
  CsfMode csf_mode = CsfMode::kWatson97;  // adm_csf_mode / csf, [0, 3]
  double noise_weight = 0.03125;          // adm_noise_weight / nw, [0, 1500]
  bool skip_aim = false;                  // adm_skip_aim (not part of the names)
  bool skip_scale0 = false;               // adm_skip_scale0 / ssz
  double min_val = 0.0;                   // adm_min_val / min, [0, 1]
  // exactvq's own: how a CUDA device runs the decoupling's binary64 steps
  // (metrics/fp64_mode.h); changes no value and no name.
  Fp64Mode fp64 = Fp64Mode::kAuto;
};

// Takes libvmaf's option names and aliases. Throws UsageError naming the
// feature, key and value on an unknown key, a value that is not a number of
// the option's type, a value outside libvmaf's range, a viewing geometry
// nvd * rdh below 3 * 1080 (libvmaf's extract() refuses those frames), or a
// blended CSF (modes 2, 3) at a geometry libvmaf has no table for.
AdmOptions parse_adm_options(const FeatureSpec& spec);

// libvmaf's suffix for output names: every name-bearing option that differs
// from its default, sorted by option name, as "_<alias>_<%g value>" (booleans
// "_<alias>"), e.g. "_egl_1".
std::string key_suffix(const AdmOptions& o);

}  // namespace exactvq::adm
