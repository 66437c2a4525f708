// The cambi engine: the per-pixel half of the metric, which every backend
// implements (metrics/engine.h): each frame's five pooled scale values of the
// distorted picture, then (with full_ref) of the reference picture. Cambi
// reads each frame alone (its windows are spatial). The feature
// (cambi_feature.h) forms the scores on the host. Every engine is a twin of
// scale_scores (reference.h), tested bit for bit.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "core/picture.h"
#include "core/thread_pool.h"
#include "metrics/cambi/heatmaps.h"
#include "metrics/cambi/setup.h"
#include "metrics/engine.h"

namespace exactvq::cambi {

// How the CUDA and OpenCL engines pooled a run's scales: from the device's
// records alone, or from values read back (device_plan.h). For tests.
struct DevicePoolCounts {
  std::atomic<int64_t> on_device{0}, read_back{0};
};

struct EngineSetup {
  VideoFormat format;
  CambiSetup cambi;
  ThreadPool* pool = nullptr;  // may be null: one thread
  // Values a frame: kScales for the distorted picture, kScales more for the
  // reference with full_ref.
  int planes = kScales;
  // Where the distorted pictures' contrast values go as well (heatmaps_path);
  // null: nowhere. Frames must then carry their index in the run.
  std::shared_ptr<HeatmapFiles> heatmaps;
  // Where the device engines count how they pooled; null: not counted.
  std::shared_ptr<DevicePoolCounts> pool_counts;
};

using Engine = FrameEngine<double>;

EXACTVQ_ENGINE_FACTORIES(Engine, EngineSetup)

}  // namespace exactvq::cambi
