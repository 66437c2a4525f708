// The one table of metrics: name -> factory. Add a metric by adding a row.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "metrics/feature.h"

namespace exactvq {

// Throws UsageError for an unknown feature or option, or a bad option value;
// DeviceError when ctx.device cannot compute the feature.
std::unique_ptr<Feature> make_feature(const FeatureSpec& spec, const FeatureContext& ctx);

// Names of the features make_feature knows, for --help and messages.
std::vector<std::string> known_features();

}  // namespace exactvq
