// A model as `vmaf --model` names it (libvmaf 3.2.0's tools/cli_parse.c):
// colon-separated key=value items.
//   version=NAME        a built-in model (wins over path=, as in libvmaf)
//   path=FILE           a model file
//   name=LABEL          the prediction's output key (default "vmaf")
//   disable_clip[=true] ignore the model's score_clip
//   enable_transform[=true]  apply the model's score_transform
//   EXTRACTOR.OPTION=VALUE   an option (by name: libvmaf ignores aliases here) for every
//                            model input that extractor makes,
//                            e.g. vif.vif_enhn_gain_limit=1
#pragma once

#include <string>
#include <vector>

#include "metrics/vmaf/model.h"

namespace exactvq::vmaf {

struct FeatureOverload {
  std::string extractor;  // "vif"
  std::string key;        // the option name, "vif_enhn_gain_limit"
  std::string value;      // as libvmaf stores it (numbers normalised)
};

struct ModelSpec {
  std::string version;
  std::string path;
  std::string name = "vmaf";
  ModelLoadFlags flags;
  std::vector<FeatureOverload> overloads;  // in the order given
};

// UsageError on bad syntax, naming the item.
ModelSpec parse_model_spec(const std::string& text);

// The model or collection the spec names, renamed (a collection's members
// NAME_0001, ...) and with its overloads applied to each of its models:
// UsageError for an unknown version, a spec naming no model or an overload
// no input takes; InputError for a bad model file.
ModelCollection load_models(const ModelSpec& spec);
// load_models for one model (UsageError for a collection).
Model load_model(const ModelSpec& spec);

}  // namespace exactvq::vmaf
