// What cambi's tests share: the catalogue of libvmaf's values on the public
// pairs (libvmaf_catalogue_scores.json), and a feature's values frame by
// frame through the registry on the CPU.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "libvmaf_vmaf_vectors.h"
#include "metrics/feature.h"
#include "metrics/registry.h"

namespace exactvq::cambi::testing {

inline const std::filesystem::path kCatalogue =
    std::filesystem::path(EXACTVQ_SHARED_DIR) / "vectors" / "libvmaf_catalogue_scores.json";

// The catalogue's pairs, read as libvmaf_vmaf_vectors.h reads its file.
inline std::vector<testing_vectors::VmafPair> load_catalogue_pairs() {
  std::vector<testing_vectors::VmafPair> pairs;
  std::ifstream in(kCatalogue);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const nlohmann::json all = nlohmann::json::parse(testing_vectors::signed_zeros_kept(text));
  for (const auto& [name, p] : all.at("pairs").items()) {
    testing_vectors::VmafPair pair;
    pair.name = name;
    pair.info = p;
    const nlohmann::json& f = p.at("format");
    const std::string ext = f.at("file_type").get<std::string>();
    const std::filesystem::path dir = kCatalogue.parent_path() / name;
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
