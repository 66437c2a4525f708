// The public test pairs of ../shared/vectors with libvmaf's catalogue runs on
// them (libvmaf_catalogue_scores.json: the VMAF v1.0.16 models, the other
// models and presets, features alone), for the tests of those features and
// models. A pair's runs carry rc, frames and perturb_stable: equal bits are
// required where rc is 0 and perturb_stable is true.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "libvmaf_vmaf_vectors.h"

namespace exactvq::testing_vectors {

// The catalogue's pairs, as load_vmaf_pairs() reads the VMAF ones.
inline std::vector<VmafPair> load_catalogue_pairs() { return load_vmaf_pairs(kCatalogueVectors); }

// The frames of a catalogue run whose values are libvmaf's definition (rc 0
// and perturb_stable), else null.
inline const nlohmann::json* stable_frames(const VmafPair& pair, const std::string& run) {
  const nlohmann::json& runs = pair.info.at("runs");
  if (!runs.contains(run)) return nullptr;
  const nlohmann::json& r = runs.at(run);
  if (r.at("rc").get<int>() != 0 || !r.value("perturb_stable", false)) return nullptr;
  return &r.at("frames");
}

}  // namespace exactvq::testing_vectors
