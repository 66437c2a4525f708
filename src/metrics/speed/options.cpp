#include "metrics/speed/options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/libvmaf_names.h"

namespace exactvq::speed {

namespace {

// The kernel scales libvmaf accepts (vif_tools.h), as binary32 values.
constexpr float kValidKernelscales[] = {
    1.0f,           1.0f / 2.0f,  3.0f / 2.0f, 2.0f,         2.0f / 3.0f,  24.0f / 10.0f,
    360.0f / 97.0f, 4.0f / 3.0f,  3.5f / 3.0f, 3.75f / 3.0f, 4.25f / 3.0f, 5.0f / 3.0f,
    3.0f,           1.0f / 2.25f, 1.4746f,     1.54f,        1.6f,         1.06667f,
    0.711111f,      0.740740f,    1.111111f,
};

double parse_number(Feature f, const std::string& key, const std::string& value, double lo,
                    double hi) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    throw UsageError(
        fmt::format("feature {}: option {}={} is not a number", feature_name(f), key, value));
  if (v < lo || v > hi)
    throw UsageError(fmt::format("feature {}: option {}={} is out of range [{}, {}]",
                                 feature_name(f), key, value, lo, hi));
  return v;
}

int parse_integer(Feature f, const std::string& key, const std::string& value, int lo, int hi) {
  char* end = nullptr;
  errno = 0;
  const long v = value.empty() ? 0 : std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno == ERANGE)
    throw UsageError(
        fmt::format("feature {}: option {}={} is not an integer", feature_name(f), key, value));
  if (v < lo || v > hi)
    throw UsageError(fmt::format("feature {}: option {}={} is out of range [{}, {}]",
                                 feature_name(f), key, value, lo, hi));
  return int(v);
}

// libvmaf compares the kernel scale as binary32 with each listed one, within 1e-3.
bool valid_kernelscale(double kernelscale) {
  const float k = float(kernelscale);
  for (float valid : kValidKernelscales)
    if (double(std::fabs(k - valid)) < 1e-3) return true;
  return false;
}

ScaleMethod parse_method(Feature f, const std::string& key, const std::string& value) {
  for (ScaleMethod m : {ScaleMethod::kNearest, ScaleMethod::kBilinear, ScaleMethod::kBicubic,
                        ScaleMethod::kLanczos4})
    if (value == scale_method_name(m)) return m;
  throw UsageError(fmt::format(
      "feature {}: option {}={} is not a scaling method (nearest, bilinear, bicubic, lanczos4)",
      feature_name(f), key, value));
}

}  // namespace

const char* feature_name(Feature f) {
  return f == Feature::kChroma ? "speed_chroma" : "speed_temporal";
}

const char* scale_method_name(ScaleMethod m) {
  switch (m) {
    case ScaleMethod::kNearest:
      return "nearest";
    case ScaleMethod::kBilinear:
      return "bilinear";
    case ScaleMethod::kBicubic:
      return "bicubic";
    case ScaleMethod::kLanczos4:
      return "lanczos4";
  }
  return "?";
}

SpeedOptions parse_speed_options(Feature f, const FeatureSpec& spec) {
  SpeedOptions o;
  o.feature = f;
  const bool chroma = f == Feature::kChroma;
  for (const auto& [key, value] : spec.options) {
    if (key == "speed_kernelscale" || key == "ks") {
      o.kernelscale = parse_number(f, key, value, 0.1, 4.0);
      if (!valid_kernelscale(o.kernelscale))
        throw UsageError(fmt::format(
            "feature {}: option {}={} is not one of libvmaf's kernel scales (1, 0.5, 1.5, 2, "
            "2/3, 2.4, 360/97, 4/3, 3.5/3, 3.75/3, 4.25/3, 5/3, 3, 1/2.25, 1.4746, 1.54, 1.6, "
            "1.06667, 0.711111, 0.74074, 1.111111)",
            feature_name(f), key, value));
    } else if (key == "speed_prescale" || key == "ps") {
      o.prescale = parse_number(f, key, value, 0.1, 4.0);
    } else if (key == "speed_prescale_method" || key == "psm") {
      o.prescale_method = parse_method(f, key, value);
    } else if (key == "speed_sigma_nn" || key == "snn") {
      o.sigma_nn = parse_number(f, key, value, 0.1, 2.0);
    } else if (key == "speed_nn_floor" || key == "nnf") {
      o.nn_floor = parse_number(f, key, value, 0.0, 1.0);
    } else if (key == "speed_max_val" || key == "mxv") {
      o.max_val = parse_number(f, key, value, 0.0, 1000.0);
    } else if (chroma && (key == "speed_weight_var_mode" || key == "wvm")) {
      o.weight_var_mode = parse_integer(f, key, value, 0, 6);
    } else if (!chroma && (key == "speed_use_ref_diff" || key == "urd")) {
      o.use_ref_diff = parse_bool_option(feature_name(f), key, value);
    } else if (key == "fp64") {
      o.fp64 = parse_fp64_mode(feature_name(f), value);
    } else {
      throw UsageError(fmt::format(
          "feature {}: unknown option '{}' (known: speed_kernelscale, speed_prescale, "
          "speed_prescale_method, speed_sigma_nn, speed_nn_floor, speed_max_val, {}, fp64)",
          feature_name(f), key, chroma ? "speed_weight_var_mode" : "speed_use_ref_diff"));
    }
  }
  return o;
}

std::string key_suffix(const SpeedOptions& o) {
  std::vector<NamedOption> named{
      {"speed_kernelscale", "ks", false, o.kernelscale, 1.0},
      {"speed_prescale", "ps", false, o.prescale, 1.0},
      {"speed_prescale_method", "psm", false, 0, 0, scale_method_name(o.prescale_method),
       "nearest"},
      {"speed_sigma_nn", "snn", false, o.sigma_nn, 0.29},
      {"speed_nn_floor", "nnf", false, o.nn_floor, 0.0},
      {"speed_max_val", "mxv", false, o.max_val, 1000.0},
  };
  if (o.feature == Feature::kChroma)
    named.push_back({"speed_weight_var_mode", "wvm", false, double(o.weight_var_mode), 0.0});
  else
    named.push_back({"speed_use_ref_diff", "urd", true, double(o.use_ref_diff), 0.0});
  return libvmaf_key_suffix(named);
}

}  // namespace exactvq::speed
