// A feature as the user names it: FFmpeg/libvmaf syntax "name=key=value:key=value".
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace exactvq {

struct FeatureSpec {
  std::string name;
  std::vector<std::pair<std::string, std::string>> options;  // in the order given
};

// Throws UsageError on an empty name, an option without '=', or an empty key.
FeatureSpec parse_feature_spec(const std::string& text);

// "true"/"false" (also 1/0, yes/no); throws UsageError naming the feature and key.
bool parse_bool_option(const std::string& feature, const std::string& key, const std::string& v);

}  // namespace exactvq
