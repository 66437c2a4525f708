// vmaf_model_load*, vmaf_model_feature_overload, vmaf_model_destroy; model
// collections are refused (exactvq scores no bootstrap collection yet).
#include <cerrno>
#include <memory>
#include <new>
#include <string>

#include <fmt/format.h>

#include "libvmaf_api/dictionary.h"
#include "libvmaf_api/log.h"
#include "libvmaf_api/model_handle.h"
#include "metrics/vmaf/score_models.h"

namespace exactvq::libvmaf_api {

namespace {

// Checks the spec by making the model; logs and returns -EINVAL when it fails.
int check_model(const std::string& spec) {
  try {
    vmaf::make_score_models({spec});
    return 0;
  } catch (const std::bad_alloc&) {
    return -ENOMEM;
  } catch (const std::exception& e) {
    log_line(VMAF_LOG_LEVEL_ERROR, fmt::format("model: {}", e.what()));
    return -EINVAL;
  }
}

int load(VmafModel** model, const VmafModelConfig* cfg, const char* key, const char* value) {
  if (!model || !cfg || !value) return -EINVAL;
  *model = nullptr;
  const std::string name = cfg->name ? cfg->name : "vmaf";
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
  std::string spec = fmt::format("{}={}:name={}", key, source, name);
  if (cfg->flags & VMAF_MODEL_FLAG_DISABLE_CLIP) spec += ":disable_clip=true";
  if (cfg->flags & VMAF_MODEL_FLAG_ENABLE_TRANSFORM) spec += ":enable_transform=true";
  // VMAF_MODEL_FLAG_DISABLE_TRANSFORM changes nothing at load in libvmaf either.
  if (const int err = check_model(spec)) return err;
  *model = new (std::nothrow) VmafModel{spec, name};
  return *model ? 0 : -ENOMEM;
}

int refuse_collection(const char* what) {
  log_line(VMAF_LOG_LEVEL_ERROR,
           fmt::format("{}: model collections (bootstrap models) are not supported by exactvq "
                       "yet; load each model with vmaf_model_load",
                       what));
  return -EINVAL;
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
  const std::string extractor = feature_name;
  std::string spec = model->spec;
  for (const auto& [key, value] : options->entries) {
    if (key.find_first_of(":=.") != std::string::npos || value.find(':') != std::string::npos ||
        extractor.find_first_of(":=.") != std::string::npos) {
      log_line(VMAF_LOG_LEVEL_ERROR, fmt::format("model overload {}.{}={}: holds ':', '=' or '.'",
                                                 extractor, key, value));
      return -EINVAL;
    }
    spec += fmt::format(":{}.{}={}", extractor, key, value);
  }
  if (const int err = check_model(spec)) return err;
  model->spec = spec;
  return 0;
}

extern "C" void vmaf_model_destroy(VmafModel* model) { delete model; }

extern "C" int vmaf_model_collection_load(VmafModel** model, VmafModelCollection** collection,
                                          VmafModelConfig*, const char*) {
  if (model) *model = nullptr;
  if (collection) *collection = nullptr;
  return refuse_collection("vmaf_model_collection_load");
}

extern "C" int vmaf_model_collection_load_from_path(VmafModel** model,
                                                    VmafModelCollection** collection,
                                                    VmafModelConfig*, const char*) {
  if (model) *model = nullptr;
  if (collection) *collection = nullptr;
  return refuse_collection("vmaf_model_collection_load_from_path");
}

extern "C" int vmaf_model_collection_feature_overload(VmafModel*, VmafModelCollection**,
                                                      const char*, VmafFeatureDictionary*) {
  return refuse_collection("vmaf_model_collection_feature_overload");
}

extern "C" void vmaf_model_collection_destroy(VmafModelCollection*) {}
