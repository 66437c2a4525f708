#include "metrics/adm/options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/adm/csf_factors.h"
#include "metrics/libvmaf_names.h"

namespace exactvq::adm {

namespace {

constexpr const char* kKnown =
    "debug, adm_csf_scale (scf), adm_csf_diag_scale (scfd), adm_dlm_weight (dlmw), "
    "adm_enhn_gain_limit (egl), adm_norm_view_dist (nvd), adm_ref_display_height (rdh), "
    "adm_csf_mode (csf), adm_noise_weight (nw), adm_skip_aim, adm_skip_scale0 (ssz), "
    "adm_min_val (min), fp64";

double parse_double_in(const FeatureSpec& spec, const std::string& key, const std::string& value,
                       double lo, double hi) {
  errno = 0;
  char* end = nullptr;
  const double v = value.empty() ? NAN : std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || errno == ERANGE || !(v >= lo && v <= hi))
    throw UsageError(fmt::format("feature {}: option {}={} is not a number in [{:g}, {:g}]",
                                 spec.name, key, value, lo, hi));
  return v;
}

int parse_int_in(const FeatureSpec& spec, const std::string& key, const std::string& value, int lo,
                 int hi) {
  errno = 0;
  char* end = nullptr;
  const long v = value.empty() ? 0 : std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno == ERANGE || v < lo || v > hi)
    throw UsageError(fmt::format("feature {}: option {}={} is not an integer in [{}, {}]",
                                 spec.name, key, value, lo, hi));
  return static_cast<int>(v);
}

bool is(const std::string& key, const char* name, const char* alias) {
  return key == name || (alias != nullptr && key == alias);
}

}  // namespace

AdmOptions parse_adm_options(const FeatureSpec& spec) {
  AdmOptions o;
  for (const auto& [key, value] : spec.options) {
    if (key == "debug")
      o.debug = parse_bool_option(spec.name, key, value);
    else if (is(key, "adm_csf_scale", "scf"))
      o.csf_scale = parse_double_in(spec, key, value, 0.0, 50.0);
    else if (is(key, "adm_csf_diag_scale", "scfd"))
      o.csf_diag_scale = parse_double_in(spec, key, value, 0.0, 50.0);
    else if (is(key, "adm_dlm_weight", "dlmw"))
      o.dlm_weight = parse_double_in(spec, key, value, 0.0, 1.0);
    else if (is(key, "adm_enhn_gain_limit", "egl"))
      o.enhn_gain_limit = parse_double_in(spec, key, value, 1.0, 100.0);
    else if (is(key, "adm_norm_view_dist", "nvd"))
      o.norm_view_dist = parse_double_in(spec, key, value, 0.75, 24.0);
    else if (is(key, "adm_ref_display_height", "rdh"))
      o.ref_display_height = parse_int_in(spec, key, value, 1, 4320);
    else if (is(key, "adm_csf_mode", "csf"))
      o.csf_mode = static_cast<CsfMode>(parse_int_in(spec, key, value, 0, 3));
    else if (is(key, "adm_noise_weight", "nw"))
      o.noise_weight = parse_double_in(spec, key, value, 0.0, 1500.0);
    else if (key == "adm_skip_aim")
      o.skip_aim = parse_bool_option(spec.name, key, value);
    else if (is(key, "adm_skip_scale0", "ssz"))
      o.skip_scale0 = parse_bool_option(spec.name, key, value);
    else if (is(key, "adm_min_val", "min"))
      o.min_val = parse_double_in(spec, key, value, 0.0, 1.0);
    else if (key == "fp64")
      o.fp64 = parse_fp64_mode(spec.name, value);
    else
      throw UsageError(
          fmt::format("feature {}: unknown option '{}' (known: {})", spec.name, key, kKnown));
  }
  // libvmaf's extract() fails every frame below this angular resolution: its
  // 16-bit scale-0 pipeline cannot hold the larger CSF factors.
  if (o.norm_view_dist * o.ref_display_height < 3.0 * 1080)
    throw UsageError(fmt::format(
        "feature {}: adm_norm_view_dist * adm_ref_display_height = {:g} * {} is below 3 * 1080, "
        "which libvmaf's ADM cannot score",
        spec.name, o.norm_view_dist, o.ref_display_height));
  csf_factors(o);  // refuses a blended CSF at a geometry without a table
  return o;
}

std::string key_suffix(const AdmOptions& o) {
  const AdmOptions d;
  return libvmaf_key_suffix({
      {"adm_csf_scale", "scf", false, o.csf_scale, d.csf_scale},
      {"adm_csf_diag_scale", "scfd", false, o.csf_diag_scale, d.csf_diag_scale},
      {"adm_dlm_weight", "dlmw", false, o.dlm_weight, d.dlm_weight},
      {"adm_enhn_gain_limit", "egl", false, o.enhn_gain_limit, d.enhn_gain_limit},
      {"adm_norm_view_dist", "nvd", false, o.norm_view_dist, d.norm_view_dist},
      {"adm_ref_display_height", "rdh", false, double(o.ref_display_height),
       double(d.ref_display_height)},
      {"adm_csf_mode", "csf", false, double(static_cast<int>(o.csf_mode)),
       double(static_cast<int>(d.csf_mode))},
      {"adm_noise_weight", "nw", false, o.noise_weight, d.noise_weight},
      {"adm_skip_scale0", "ssz", true, o.skip_scale0 ? 1.0 : 0.0, d.skip_scale0 ? 1.0 : 0.0},
      {"adm_min_val", "min", false, o.min_val, d.min_val},
  });
}

}  // namespace exactvq::adm
