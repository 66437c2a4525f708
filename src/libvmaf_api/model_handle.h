// VmafModel and VmafModelCollection: models as exactvq's --model names them,
// checked when loaded. A collection and its main model (model "0", returned
// beside it) share one --model text: a run of that text scores the main model,
// the members and their statistics.
#pragma once

#include <string>
#include <vector>

#include "libvmaf/model.h"

struct VmafModel {
  std::string spec;  // "version=vmaf_v0.6.1:name=vmaf", as --model takes it
  std::string name;  // its score's name
  // For a collection's main model: the collection's scores that its run also
  // computes (written only once the collection is registered or scored).
  std::vector<std::string> collection_outputs;
};

struct VmafModelCollection {
  std::string spec;                  // the --model text, as its main model's
  std::string name;                  // the main model's name; members are NAME_0001, ...
  std::vector<std::string> outputs;  // NAME_0001..., NAME_bagging, _stddev, _ci_p95_lo, _hi
};

namespace exactvq::libvmaf_api {

// The names of a collection's four statistics, as libvmaf writes them.
inline std::string bagging_name(const std::string& name) { return name + "_bagging"; }
inline std::string stddev_name(const std::string& name) { return name + "_stddev"; }
inline std::string ci_p95_lo_name(const std::string& name) { return name + "_ci_p95_lo"; }
inline std::string ci_p95_hi_name(const std::string& name) { return name + "_ci_p95_hi"; }

}  // namespace exactvq::libvmaf_api
