// VmafContext: a libvmaf scoring run over exactvq's ApiContext. Features and
// models are collected as --feature / --model texts until the first picture,
// which opens the ApiContext; pictures are scored as they are read.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "capi/api_context.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf_api/picture_memory.h"

struct VmafContext {
  VmafConfiguration cfg{};
  std::vector<std::string> model_specs, model_names;
  std::vector<std::string> feature_specs;
  // The model collections whose --model text is registered (through the
  // collection or its main model). Their scores are written once the collection
  // is registered or scored; an index's statistics are scored once, as libvmaf's
  // collector takes each name once per index.
  struct Collection {
    std::string spec, name;
    std::vector<std::string> outputs;
    bool shown = false;
    std::vector<bool> scored;  // per index: vmaf_score_at_index_model_collection done
  };
  std::vector<Collection> collections;
  std::unique_ptr<exactvq::capi::ApiContext> run;  // from the first picture on
  bool started = false, flushed = false;
  unsigned pic_cnt = 0;  // pictures read (the next index)
  VmafPixelFormat pix_fmt = VMAF_PIX_FMT_UNKNOWN;
  unsigned bpc = 0, w = 0, h = 0;
  // Scores given by vmaf_import_feature_score: name, then (index, value) present.
  struct Imported {
    std::string name;
    std::vector<std::optional<double>> values;
  };
  std::vector<Imported> imported;
  std::shared_ptr<exactvq::libvmaf_api::PicturePool> pool;
  int cuda_device = -1;  // vmaf_cuda_import_state's device
  std::chrono::steady_clock::time_point begin, end;
  std::string last_error;
};

namespace exactvq::libvmaf_api {

// Whether index's scores exist under n_subsample.
bool index_scored(const VmafContext& v, unsigned index);

// A score at `index` (computed, or imported); nullopt when there is none or it
// is a collection's not shown yet.
std::optional<double> score_of(const VmafContext& v, const std::string& name, unsigned index);

// Every score's name: exactvq's columns, then the imported ones.
std::vector<std::string> score_names(const VmafContext& v);

// libvmaf's vmaf_feature_score_pooled over index_low..index_high.
int pool_scores(const VmafContext& v, const std::string& name, VmafPoolingMethod method,
                double* score, unsigned index_low, unsigned index_high);

}  // namespace exactvq::libvmaf_api
