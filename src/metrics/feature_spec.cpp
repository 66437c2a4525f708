#include "metrics/feature_spec.h"

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq {

FeatureSpec parse_feature_spec(const std::string& text) {
  FeatureSpec spec;
  const size_t eq = text.find('=');
  spec.name = text.substr(0, eq);
  if (spec.name.empty())
    throw UsageError(fmt::format("--feature '{}': missing feature name", text));
  if (eq == std::string::npos) return spec;
  const std::string rest = text.substr(eq + 1);
  size_t start = 0;
  while (start <= rest.size()) {
    const size_t end = std::min(rest.find(':', start), rest.size());
    const std::string item = rest.substr(start, end - start);
    const size_t kv = item.find('=');
    if (kv == std::string::npos || kv == 0)
      throw UsageError(
          fmt::format("--feature '{}': option '{}' is not of the form key=value", text, item));
    spec.options.emplace_back(item.substr(0, kv), item.substr(kv + 1));
    start = end + 1;
  }
  return spec;
}

bool parse_bool_option(const std::string& feature, const std::string& key, const std::string& v) {
  if (v == "true" || v == "1" || v == "yes") return true;
  if (v == "false" || v == "0" || v == "no") return false;
  throw UsageError(
      fmt::format("feature {}: option {}={} is not a boolean (true or false)", feature, key, v));
}

}  // namespace exactvq
