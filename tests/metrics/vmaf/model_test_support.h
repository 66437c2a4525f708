// What the vmaf model tests share: the shared/ folder, the vectors file read
// so that "-0" stays a negative zero, bitwise comparison of doubles.
#pragma once

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#include "metrics/vmaf/model_json.h"

namespace exactvq::vmaf::model_testing {

inline const std::filesystem::path kShared(EXACTVQ_SHARED_DIR);
inline const std::filesystem::path kVmafVectors = kShared / "vectors" / "libvmaf_vmaf_scores.json";
inline const std::filesystem::path kSharedModels = kShared / "models";
inline const std::filesystem::path kOracle = kShared / "libvmaf" / "vmaf";

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// JSON as libvmaf wrote it at %.17g: numbers keep their sign, null is NaN.
inline nlohmann::json read_scores_json(const std::string& text, const std::string& what) {
  return read_json_document(text, what).root;
}

inline double score_value(const nlohmann::json& v) {
  return v.is_null() ? std::nan("") : v.get<double>();
}

// The same bits (every NaN counts as one value: libvmaf prints them all as null).
inline bool same_bits(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace exactvq::vmaf::model_testing
