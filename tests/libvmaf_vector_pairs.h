// The public test pairs of ../shared/vectors and libvmaf's scores on them
// (libvmaf_scores.json), as the vector tests of every feature read them.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/video_source.h"

namespace exactvq::testing_vectors {

inline const std::filesystem::path kVectors = std::filesystem::path(EXACTVQ_SHARED_DIR) / "vectors";

struct Pair {
  nlohmann::json info;  // the pair's entry in libvmaf_scores.json
  std::filesystem::path ref, dist;
  RawOptions raw;  // set for raw .yuv pairs
};

inline bool vectors_present() { return std::filesystem::exists(kVectors / "libvmaf_scores.json"); }

inline std::vector<Pair> load_pairs() {
  std::vector<Pair> pairs;
  std::ifstream in(kVectors / "libvmaf_scores.json");
  const nlohmann::json all = nlohmann::json::parse(in);
  for (const nlohmann::json& p : all.at("pairs")) {
    Pair pair;
    pair.info = p;
    const std::string ext = p.at("file_type").get<std::string>();
    const std::filesystem::path dir = kVectors / p.at("name").get<std::string>();
    pair.ref = dir / ("ref." + ext);
    pair.dist = dir / ("dist." + ext);
    if (ext == "yuv") {
      pair.raw.width = p.at("width").get<int>();
      pair.raw.height = p.at("height").get<int>();
      pair.raw.bitdepth = p.at("bitdepth").get<int>();
      const std::string c = p.at("chroma").get<std::string>();
      pair.raw.chroma = c == "420"   ? ChromaFormat::k420
                        : c == "422" ? ChromaFormat::k422
                                     : ChromaFormat::k444;
    }
    pairs.push_back(pair);
  }
  return pairs;
}

}  // namespace exactvq::testing_vectors
