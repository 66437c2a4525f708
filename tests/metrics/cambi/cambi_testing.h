// What cambi's tests share: the catalogue of libvmaf's values on the public
// pairs (libvmaf_catalogue_scores.json), and a feature's values frame by
// frame through the registry on the CPU.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "libvmaf_vmaf_vectors.h"
#include "metrics/feature.h"
#include "metrics/registry.h"

namespace exactvq::cambi::testing {

// libvmaf's catalogue file and its pairs, as every metric's tests read them.
inline const std::filesystem::path& kCatalogue = testing_vectors::kCatalogueVectors;

inline std::vector<testing_vectors::VmafPair> load_catalogue_pairs() {
  return testing_vectors::load_vmaf_pairs(kCatalogue);
}

// The feature `spec` ("cambi=full_ref=true") on the CPU, one thread.
inline std::unique_ptr<Feature> cpu_feature(const std::string& spec, const VideoFormat& f) {
  FeatureContext ctx;
  ctx.format = f;
  return make_feature(parse_feature_spec(spec), ctx);
}

// Its values of every frame pair: [frame][output].
inline std::vector<std::vector<double>> frame_values(Feature& feature,
                                                     const std::vector<Picture>& refs,
                                                     const std::vector<Picture>& dists) {
  std::vector<std::vector<double>> values;
  for (size_t i = 0; i < refs.size(); ++i) {
    values.emplace_back(feature.outputs().size());
    feature.extract(refs[i], dists[i], values.back());
  }
  return values;
}

}  // namespace exactvq::cambi::testing
