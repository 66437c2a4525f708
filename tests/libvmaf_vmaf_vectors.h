// The public test pairs of ../shared/vectors with libvmaf's VMAF runs on them
// (libvmaf_vmaf_scores.json), and the libvmaf binary beside them, for the
// tests of VMAF's features and models.
#pragma once

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/video_source.h"

namespace exactvq::testing_vectors {

inline const std::filesystem::path kVmafVectors =
    std::filesystem::path(EXACTVQ_SHARED_DIR) / "vectors" / "libvmaf_vmaf_scores.json";
// libvmaf's catalogue beyond v0.6.1 on the same pairs (the other models, presets, features).
inline const std::filesystem::path kCatalogueVectors =
    std::filesystem::path(EXACTVQ_SHARED_DIR) / "vectors" / "libvmaf_catalogue_scores.json";
inline const std::filesystem::path kLibvmafBinary =
    std::filesystem::path(EXACTVQ_SHARED_DIR) / "libvmaf" / "vmaf";

struct VmafPair {
  std::string name;
  nlohmann::json info;  // the pair's entry: format, runs, simd_vs_c
  std::filesystem::path ref, dist;
  RawOptions raw;  // set for raw .yuv pairs
  // The frames of a run that libvmaf completed (rc 0), else empty.
  const nlohmann::json* frames(const std::string& run) const {
    const nlohmann::json& r = info.at("runs").at(run);
    return r.at("rc").get<int>() == 0 ? &r.at("frames") : nullptr;
  }
};

// The file's text with each bare "-0" written "-0.0", which the JSON reader keeps
// as a negative zero (it reads "-0" as the integer 0).
inline std::string signed_zeros_kept(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '-' && i + 1 < text.size() && text[i + 1] == '0' &&
        (i + 2 == text.size() || std::strchr(",]} \n\r\t", text[i + 2]))) {
      out += "0.0";
      ++i;
    }
  }
  return out;
}

// The pairs of a scores file of that shape (libvmaf_vmaf_scores.json, or the catalogue).
inline std::vector<VmafPair> load_vmaf_pairs(const std::filesystem::path& file = kVmafVectors) {
  std::vector<VmafPair> pairs;
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const nlohmann::json all = nlohmann::json::parse(signed_zeros_kept(text));
  for (const auto& [name, p] : all.at("pairs").items()) {
    VmafPair pair;
    pair.name = name;
    pair.info = p;
    const nlohmann::json& f = p.at("format");
    const std::string ext = f.at("file_type").get<std::string>();
    const std::filesystem::path dir = file.parent_path() / name;
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

// A stored value (null: NaN, as libvmaf wrote it).
inline double stored_value(const nlohmann::json& v) {
  return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
}

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace exactvq::testing_vectors
