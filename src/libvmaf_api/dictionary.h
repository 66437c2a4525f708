// VmafFeatureDictionary: an extractor's options, key=value in the order set.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "libvmaf/feature.h"

struct VmafFeatureDictionary {
  std::vector<std::pair<std::string, std::string>> entries;
};

namespace exactvq::libvmaf_api {

// "name" or "name=key=value:key=value", as exactvq's --feature takes it.
// Throws UsageError for a key or value that cannot be written there.
std::string feature_spec_text(const std::string& name, const VmafFeatureDictionary* options);

}  // namespace exactvq::libvmaf_api
