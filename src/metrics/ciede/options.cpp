#include "metrics/ciede/options.h"

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq::ciede {

CiedeOptions parse_ciede_options(const FeatureSpec& spec) {
  CiedeOptions o;
  for (const auto& [key, value] : spec.options) {
    if (key == "fp64")
      o.fp64 = parse_fp64_mode("ciede", value);
    else
      throw UsageError(
          fmt::format("feature ciede: unknown option '{}' (ciede takes only exactvq's "
                      "fp64=auto|native|emulate)",
                      key));
  }
  return o;
}

}  // namespace exactvq::ciede
