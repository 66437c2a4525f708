// The adm engine: the per-sample half of the metric, which every
// backend implements (metrics/engine.h): for each frame pair of a batch, each scale's
// integer sums (reference.h's AdmSums, adm_integer_sums). The feature
// (adm_feature.h) turns them into scores on the host (adm_scores_from_sums).
// Every engine is a twin of the scalar reference, tested bit for bit.
#pragma once

#include <memory>
#include <span>

#include "core/picture.h"
#include "core/thread_pool.h"
#include "metrics/engine.h"
#include "metrics/adm/options.h"
#include "metrics/adm/reference.h"

namespace exactvq::adm {

struct EngineSetup {
  VideoFormat format;
  AdmOptions options;
  ThreadPool* pool = nullptr;       // may be null: one thread
  static constexpr int planes = 1;  // one AdmSums a frame
};

// Frame f's sums into out[f].
using Engine = FrameEngine<AdmSums>;

EXACTVQ_ENGINE_FACTORIES(Engine, EngineSetup)

}  // namespace exactvq::adm
