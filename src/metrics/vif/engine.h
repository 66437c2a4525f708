// The vif engine: the per-pixel half of the metric, which every
// backend implements (metrics/engine.h): for each frame pair of a batch, each pyramid
// level's integer sums (reference.h's vif_level_sums). The feature
// (vif_feature.h) turns them into scores on the host (vif_scores). Every engine
// is a twin of the scalar reference, tested bit for bit.
#pragma once

#include <memory>
#include <span>

#include "core/picture.h"
#include "core/thread_pool.h"
#include "metrics/engine.h"
#include "metrics/vif/options.h"
#include "metrics/vif/reference.h"

namespace exactvq::vif {

struct EngineSetup {
  VideoFormat format;
  VifOptions options;
  ThreadPool* pool = nullptr;       // may be null: one thread
  static constexpr int planes = 1;  // one VifLevelSums a frame
};

// Frame f's level sums into out[f].
using Engine = FrameEngine<VifLevelSums>;

EXACTVQ_ENGINE_FACTORIES(Engine, EngineSetup)

}  // namespace exactvq::vif
