// The public test pairs of ../shared/vectors with libvmaf's catalogue runs on
// them (libvmaf_catalogue_scores.json: the VMAF v1.0.16 models, the other
// models and presets, features alone), for the tests of those features and
// models. A pair's runs carry rc, frames and perturb_stable: equal bits are
// required where rc is 0 and perturb_stable is true.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "libvmaf_vmaf_vectors.h"

namespace exactvq::testing_vectors {

inline const std::filesystem::path kCatalogueVectors =
    std::filesystem::path(EXACTVQ_SHARED_DIR) / "vectors" / "libvmaf_catalogue_scores.json";

// The catalogue's pairs, as load_vmaf_pairs() reads the VMAF ones.
inline std::vector<VmafPair> load_catalogue_pairs() {
  std::vector<VmafPair> pairs;
  std::ifstream in(kCatalogueVectors);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const nlohmann::json all = nlohmann::json::parse(signed_zeros_kept(text));
  for (const auto& [name, p] : all.at("pairs").items()) {
    VmafPair pair;
    pair.name = name;
    pair.info = p;
    const nlohmann::json& f = p.at("format");
    const std::string ext = f.at("file_type").get<std::string>();
    const std::filesystem::path dir = kCatalogueVectors.parent_path() / name;
    pair.ref = dir / ("ref." + ext);
    pair.dist = dir / ("dist." + ext);
    if (ext == "yuv") {
      pair.raw.width = f.at("width").get<int>();
      pair.raw.height = f.at("height").get<int>();
      pair.raw.bitdepth = f.at("bitdepth").get<int>();
      const std::string c = f.at("chroma").get<std::string>();
      pair.raw.chroma = c == "420"   ? ChromaFormat::k420
                        : c == "422" ? ChromaFormat::k422
                                     : ChromaFormat::k444;
    }
    pairs.push_back(pair);
  }
  return pairs;
}

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
