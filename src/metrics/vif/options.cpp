#include "metrics/vif/options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/libvmaf_names.h"

namespace exactvq::vif {

namespace {

double parse_gain_limit(const std::string& key, const std::string& value) {
  char* end = nullptr;
  errno = 0;
  const double v = value.empty() ? NAN : std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    throw UsageError(fmt::format("feature vif: option {}={} is not a number", key, value));
  if (v < 1.0 || v > kDefaultGainLimit)
    throw UsageError(fmt::format("feature vif: option {}={} is out of range [1, 100]", key, value));
  return v;
}

}  // namespace

VifOptions parse_vif_options(const FeatureSpec& spec) {
  VifOptions o;
  for (const auto& [key, value] : spec.options) {
    if (key == "debug")
      o.debug = parse_bool_option("vif", key, value);
    else if (key == "vif_enhn_gain_limit" || key == "egl")
      o.gain_limit = parse_gain_limit(key, value);
    else if (key == "vif_skip_scale0" || key == "ssclz")
      o.skip_scale0 = parse_bool_option("vif", key, value);
    else if (key == "fp64")
      o.fp64 = parse_fp64_mode("vif", value);
    else
      throw UsageError(
          fmt::format("feature vif: unknown option '{}' (known: debug, vif_enhn_gain_limit (egl), "
                      "vif_skip_scale0 (ssclz), fp64)",
                      key));
  }
  return o;
}

std::string key_suffix(const VifOptions& o) {
  return libvmaf_key_suffix({
      {"vif_enhn_gain_limit", "egl", false, o.gain_limit, kDefaultGainLimit},
      {"vif_skip_scale0", "ssclz", true, double(o.skip_scale0), 0.0},
  });
}

}  // namespace exactvq::vif
