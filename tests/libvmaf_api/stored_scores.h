// libvmaf's plain-C values of VMAF v0.6.1 on the public 576x324 Y4M pairs
// (vectors/libvmaf_vmaf_scores.json, run vmaf_v0.6.1_nosimd), keyed as
// vmaf_api_score.c prints them, and their comparison with a run's values.
#pragma once

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api_runs.h"

namespace exactvq::libvmaf_test {

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline std::string fmt_double(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

struct Expected {
  std::string pair;
  Values values;
};

// The nosimd run's values of every Y4M pair, keyed as the program prints them.
inline std::vector<Expected> expected_runs() {
  std::vector<Expected> runs;
  std::ifstream in(shared_dir() / "vectors" / "libvmaf_vmaf_scores.json");
  if (!in) return runs;
  // parse_int=float: "-0" keeps its sign, integers read as doubles.
  const auto doc = nlohmann::json::parse(in);
  for (const auto& [pair, entry] : doc["pairs"].items()) {
    const auto& format = entry["format"];
    if (format["file_type"] != "y4m" || format["width"] != 576 || format["height"] != 324) continue;
    const auto& run = entry["runs"]["vmaf_v0.6.1_nosimd"];
    if (run["rc"] != 0) continue;
    Expected e{pair, {}};
    for (const auto& frame : run["frames"]) {
      const int i = frame["frameNum"];
      for (const auto& [key, value] : frame.items())
        if (key != "frameNum" && !value.is_null())
          e.values["frame " + std::to_string(i) + " " + key] = value.get<double>();
    }
    for (const auto& [key, methods] : run["pooled"].items())
      for (const auto& [method, value] : methods.items())
        if (!value.is_null()) e.values["pooled " + key + " " + method] = value.get<double>();
    runs.push_back(std::move(e));
  }
  return runs;
}

// Compares `got` with `want` key by key; returns the count of equal values and
// lists the others in `differences`.
inline size_t compare(const Values& want, const Values& got, std::string& differences) {
  size_t equal = 0;
  for (const auto& [key, value] : want) {
    const auto it = got.find(key);
    if (it == got.end()) continue;  // scores the program does not read
    if (same_bits(it->second, value))
      ++equal;
    else
      differences += "  " + key + ": " + fmt_double(it->second) + " vs " + fmt_double(value) + "\n";
  }
  return equal;
}

}  // namespace exactvq::libvmaf_test
