#include "metrics/float_ssim/options.h"

#include <cerrno>
#include <cstdlib>

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq::float_ssim {

namespace {

int parse_scale(const std::string& value) {
  char* end = nullptr;
  errno = 0;
  const long v = value.empty() ? -1 : std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno == ERANGE)
    throw UsageError(fmt::format("feature float_ssim: option scale={} is not an integer", value));
  if (v < 0 || v > kMaxScale)
    throw UsageError(
        fmt::format("feature float_ssim: option scale={} is out of range [0, {}] (0: automatic, 1: "
                    "no downscaling)",
                    value, kMaxScale));
  return int(v);
}

ssim::Fp64Mode parse_fp64(const char* feature, const std::string& value) {
  if (value == "auto") return ssim::Fp64Mode::kAuto;
  if (value == "native") return ssim::Fp64Mode::kNative;
  if (value == "emulate") return ssim::Fp64Mode::kEmulate;
  throw UsageError(
      fmt::format("feature {}: fp64={} is not auto, native or emulate", feature, value));
}

// The options both features share; false when `key` is not one of them.
template <typename Options>
bool parse_shared(const char* feature, const std::string& key, const std::string& value,
                  Options& o) {
  if (key == "enable_lcs")
    o.enable_lcs = parse_bool_option(feature, key, value);
  else if (key == "enable_db")
    o.enable_db = parse_bool_option(feature, key, value);
  else if (key == "clip_db")
    o.clip_db = parse_bool_option(feature, key, value);
  else if (key == "fp64")
    o.fp64 = parse_fp64(feature, value);
  else
    return false;
  return true;
}

}  // namespace

SsimOptions parse_ssim_options(const FeatureSpec& spec) {
  SsimOptions o;
  for (const auto& [key, value] : spec.options) {
    if (parse_shared("float_ssim", key, value, o)) continue;
    if (key == "scale")
      o.scale = parse_scale(value);
    else
      throw UsageError(
          fmt::format("feature float_ssim: unknown option '{}' (known: enable_lcs, enable_db, "
                      "clip_db, scale, fp64)",
                      key));
  }
  return o;
}

MsSsimOptions parse_ms_ssim_options(const FeatureSpec& spec) {
  MsSsimOptions o;
  for (const auto& [key, value] : spec.options)
    if (!parse_shared("float_ms_ssim", key, value, o))
      throw UsageError(
          fmt::format("feature float_ms_ssim: unknown option '{}' (known: enable_lcs, enable_db, "
                      "clip_db, fp64)",
                      key));
  return o;
}

}  // namespace exactvq::float_ssim
