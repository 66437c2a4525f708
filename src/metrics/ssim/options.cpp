#include "metrics/ssim/options.h"

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq::ssim {

SsimOptions parse_ssim_options(const FeatureSpec& spec) {
  SsimOptions o;
  for (const auto& [key, value] : spec.options) {
    if (key == "sum") {
      if (value == "exact")
        o.mode = SumMode::kExact;
      else if (value == "raster")
        o.mode = SumMode::kRaster;
      else
        throw UsageError(fmt::format("feature ssim: sum={} is not exact or raster", value));
    } else if (key == "enable_db") {
      o.enable_db = parse_bool_option(spec.name, key, value);
    } else if (key == "clip_db") {
      o.clip_db = parse_bool_option(spec.name, key, value);
    } else if (key == "chroma") {
      o.chroma = parse_bool_option(spec.name, key, value);
    } else if (key == "fp64") {
      o.fp64 = parse_fp64_mode("ssim", value);
    } else {
      throw UsageError(fmt::format(
          "feature ssim: unknown option '{}' (known: sum, enable_db, clip_db, chroma, fp64)", key));
    }
  }
  return o;
}

FeatureSpec with_default_mode(FeatureSpec spec, SumMode mode) {
  for (const auto& [key, value] : spec.options)
    if (key == "sum") return spec;
  spec.options.emplace_back("sum", mode == SumMode::kRaster ? "raster" : "exact");
  return spec;
}

std::vector<std::string> output_names(const SsimOptions& o) {
  static const char* const kNames[] = {"ssim", "ssim_cb", "ssim_cr"};
  return {kNames, kNames + scored_planes(o)};
}

}  // namespace exactvq::ssim
