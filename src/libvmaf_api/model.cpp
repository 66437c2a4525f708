// vmaf_model_load*, vmaf_model_feature_overload, vmaf_model_destroy and the
// model collections' vmaf_model_collection_*: a collection (a bootstrap model
// such as vmaf_b_v0.6.3) comes as its main model and the collection of its
// members, as libvmaf 3.2.0 returns them.
#include <cerrno>
#include <memory>
#include <new>
#include <string>

#include <fmt/format.h>

#include "libvmaf_api/dictionary.h"
#include "libvmaf_api/log.h"
#include "libvmaf_api/model_handle.h"
#include "metrics/vmaf/bootstrap.h"
#include "metrics/vmaf/model_spec.h"
#include "metrics/vmaf/score_models.h"

namespace exactvq::libvmaf_api {

namespace {

// What a checked spec holds: its members' count (0 for one model).
struct Checked {
  int err = 0;
  std::size_t members = 0;
};

// Checks the spec by making its models; logs and returns -EINVAL when it fails.
Checked check_model(const std::string& spec) {
  try {
    vmaf::make_score_models({spec});
    return {0, vmaf::load_models(vmaf::parse_model_spec(spec)).members.size()};
  } catch (const std::bad_alloc&) {
    return {-ENOMEM, 0};
  } catch (const std::exception& e) {
    log_line(VMAF_LOG_LEVEL_ERROR, fmt::format("model: {}", e.what()));
    return {-EINVAL, 0};
  }
}

// The --model text of a load; -EINVAL (logged) for a name or source that it
// cannot carry.
int spec_of(const VmafModelConfig& cfg, const char* key, const char* value, std::string& spec,
            std::string& name) {
  name = cfg.name ? cfg.name : "vmaf";
  const std::string source = value;
  // exactvq's --model syntax splits items on ':'.
  if (name.empty() || name.find_first_of(":=") != std::string::npos ||
      source.find(':') != std::string::npos) {
    log_line(VMAF_LOG_LEVEL_ERROR,
             fmt::format("model: name '{}' or {} '{}' holds ':' or '=', which exactvq cannot "
                         "pass on",
                         name, key, source));
    return -EINVAL;
  }
  spec = fmt::format("{}={}:name={}", key, source, name);
  if (cfg.flags & VMAF_MODEL_FLAG_DISABLE_CLIP) spec += ":disable_clip=true";
  if (cfg.flags & VMAF_MODEL_FLAG_ENABLE_TRANSFORM) spec += ":enable_transform=true";
  // VMAF_MODEL_FLAG_DISABLE_TRANSFORM changes nothing at load in libvmaf either.
  return 0;
}

int load(VmafModel** model, const VmafModelConfig* cfg, const char* key, const char* value) {
  if (!model || !cfg || !value) return -EINVAL;
  *model = nullptr;
  std::string spec, name;
  if (const int err = spec_of(*cfg, key, value, spec, name)) return err;
  const Checked checked = check_model(spec);
  if (checked.err) return checked.err;
  if (checked.members) {  // libvmaf's model reader finds no model in a collection's file
    log_line(VMAF_LOG_LEVEL_ERROR,
             fmt::format("model {} '{}' is a model collection: load it with "
                         "vmaf_model_collection_load{}",
                         key, value, std::string(key) == "path" ? "_from_path" : ""));
    return -EINVAL;
  }
  *model = new (std::nothrow) VmafModel{spec, name, {}};
  return *model ? 0 : -ENOMEM;
}

int load_collection(VmafModel** model, VmafModelCollection** collection, const VmafModelConfig* cfg,
                    const char* key, const char* value) {
  if (!model || !collection || !cfg || !value) return -EINVAL;
  *model = nullptr;
  *collection = nullptr;
  std::string spec, name;
  if (const int err = spec_of(*cfg, key, value, spec, name)) return err;
  const Checked checked = check_model(spec);
  if (checked.err) return checked.err;
  if (!checked.members) {  // libvmaf's collection reader finds no member "1"
    log_line(VMAF_LOG_LEVEL_ERROR,
             fmt::format("model {} '{}' is not a model collection: load it with vmaf_model_load{}",
                         key, value, std::string(key) == "path" ? "_from_path" : ""));
    return -EINVAL;
  }
  try {
    std::vector<std::string> outputs = vmaf::bootstrap_outputs(name, checked.members);
    auto main = std::make_unique<VmafModel>(VmafModel{spec, name, outputs});
    *collection = new VmafModelCollection{spec, name, std::move(outputs)};
    *model = main.release();
    return 0;
  } catch (const std::bad_alloc&) {
    return -ENOMEM;
  }
}

// `spec` with the dictionary's options for `extractor` added, checked; the
// dictionary stays the caller's.
int overloaded(const std::string& spec, const std::string& extractor,
               const VmafFeatureDictionary& options, std::string& out) {
  out = spec;
  for (const auto& [key, value] : options.entries) {
    if (key.find_first_of(":=.") != std::string::npos || value.find(':') != std::string::npos ||
        extractor.find_first_of(":=.") != std::string::npos) {
      log_line(VMAF_LOG_LEVEL_ERROR, fmt::format("model overload {}.{}={}: holds ':', '=' or '.'",
                                                 extractor, key, value));
      return -EINVAL;
    }
    out += fmt::format(":{}.{}={}", extractor, key, value);
  }
  return check_model(out).err;
}

}  // namespace

}  // namespace exactvq::libvmaf_api

using namespace exactvq::libvmaf_api;

extern "C" int vmaf_model_load(VmafModel** model, VmafModelConfig* cfg, const char* version) {
  return load(model, cfg, "version", version);
}

extern "C" int vmaf_model_load_from_path(VmafModel** model, VmafModelConfig* cfg,
                                         const char* path) {
  return load(model, cfg, "path", path);
}

extern "C" int vmaf_model_feature_overload(VmafModel* model, const char* feature_name,
                                           VmafFeatureDictionary* opts_dict) {
  if (!model || !feature_name || !opts_dict) return -EINVAL;
  // The dictionary is taken whatever the outcome, as libvmaf takes it.
  const std::unique_ptr<VmafFeatureDictionary> options(opts_dict);
  std::string spec;
  if (const int err = overloaded(model->spec, feature_name, *options, spec)) return err;
  model->spec = spec;
  return 0;
}

extern "C" void vmaf_model_destroy(VmafModel* model) { delete model; }

extern "C" int vmaf_model_collection_load(VmafModel** model, VmafModelCollection** collection,
                                          VmafModelConfig* cfg, const char* version) {
  return load_collection(model, collection, cfg, "version", version);
}

extern "C" int vmaf_model_collection_load_from_path(VmafModel** model,
                                                    VmafModelCollection** collection,
                                                    VmafModelConfig* cfg, const char* path) {
  return load_collection(model, collection, cfg, "path", path);
}

// As libvmaf: the options go to every member and to `model` (the main model);
// the dictionary is taken whatever the outcome once the arguments are there.
extern "C" int vmaf_model_collection_feature_overload(VmafModel* model,
                                                      VmafModelCollection** collection,
                                                      const char* feature_name,
                                                      VmafFeatureDictionary* opts_dict) {
  if (!model || !collection || !*collection || !feature_name || !opts_dict) return -EINVAL;
  const std::unique_ptr<VmafFeatureDictionary> options(opts_dict);
  std::string collection_spec, model_spec;
  if (const int err = overloaded((*collection)->spec, feature_name, *options, collection_spec))
    return err;
  if (const int err = overloaded(model->spec, feature_name, *options, model_spec)) return err;
  (*collection)->spec = collection_spec;
  model->spec = model_spec;
  return 0;
}

extern "C" void vmaf_model_collection_destroy(VmafModelCollection* collection) {
  delete collection;
}
