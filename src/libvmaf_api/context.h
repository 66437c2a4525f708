// VmafContext: a libvmaf scoring run over exactvq's ApiContext. Features and
// models are collected as --feature / --model texts until the first picture,
// which opens the ApiContext; pictures are gathered into batches (FrameQueue)
// and scored when a batch fills, when a score is read and at the flush.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backends/device.h"
#include "capi/api_context.h"
#include "libvmaf/libvmaf.h"
#include "libvmaf_api/backend_choice.h"
#include "libvmaf_api/block_cache.h"
#include "libvmaf_api/frame_queue.h"
#include "libvmaf_api/picture_memory.h"

struct VmafContext {
  ~VmafContext();
  // First, so that it goes last: the pictures the members below give back are
  // kept or freed before the last context frees every kept block.
  exactvq::libvmaf_api::BlockCacheUse block_cache_use;
  VmafConfiguration cfg{};
  // EXACTVQ_LIBVMAF_BACKEND / _GPU as vmaf_init read them (unset: nullopt),
  // and the CUDA context being created meanwhile for that choice.
  std::optional<exactvq::libvmaf_api::BackendChoice> backend_choice;
  std::unique_ptr<exactvq::DeviceWarmup> warmup;
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
  // With run: the pairs read, in batches; stopped before run goes, and its
  // buffers freed after (a device's engines page-lock them).
  std::unique_ptr<exactvq::libvmaf_api::FrameQueue> queue;
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

// Scores every pair read (FrameQueue::settle): before any score is read.
void settle(VmafContext& v);

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
