#include "metrics/psnr/options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq::psnr {

namespace {

// A finite number >= 0 (libvmaf's min_sse range is [0, DBL_MAX]).
double parse_min_sse(const std::string& value) {
  errno = 0;
  char* end = nullptr;
  const double v = value.empty() ? NAN : std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v) || v < 0)
    throw UsageError(fmt::format("feature psnr: min_sse={} is not a finite number >= 0", value));
  return v;
}

}  // namespace

PsnrOptions parse_psnr_options(const FeatureSpec& spec) {
  PsnrOptions o;
  for (const auto& [key, value] : spec.options) {
    if (key == "enable_chroma")
      o.enable_chroma = parse_bool_option(spec.name, key, value);
    else if (key == "enable_mse")
      o.enable_mse = parse_bool_option(spec.name, key, value);
    else if (key == "enable_apsnr")
      o.enable_apsnr = parse_bool_option(spec.name, key, value);
    else if (key == "reduced_hbd_peak")
      o.reduced_hbd_peak = parse_bool_option(spec.name, key, value);
    else if (key == "min_sse")
      o.min_sse = parse_min_sse(value);
    else
      throw UsageError(fmt::format(
          "feature psnr: unknown option '{}' (known: enable_chroma, enable_mse, enable_apsnr, "
          "reduced_hbd_peak, min_sse)",
          key));
  }
  return o;
}

}  // namespace exactvq::psnr
