#include "metrics/ciede/options.h"

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq::ciede {

CiedeOptions parse_ciede_options(const FeatureSpec& spec) {
  for (const auto& [key, value] : spec.options)
    throw UsageError(
        fmt::format("feature ciede: unknown option '{}' (ciede takes no options)", key));
  return {};
}

}  // namespace exactvq::ciede
