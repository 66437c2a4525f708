// The motion engine: the per-pixel half of the metric, which every
// backend implements (metrics/engine.h): each frame's SAD against the reference
// picture frame_distance() frames before it (sad.h), an integer. The engine
// keeps those earlier pictures itself from call to call (on its device), so the
// frames of a run reach it once, in order. The feature (motion_feature.h) turns
// SADs into scores on the host. Every engine is a twin of sad_reference, tested
// bit for bit.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "core/picture.h"
#include "core/thread_pool.h"
#include "metrics/engine.h"
#include "metrics/motion/options.h"

namespace exactvq::motion {

struct EngineSetup {
  VideoFormat format;
  MotionOptions options;
  ThreadPool* pool = nullptr;       // may be null: one thread
  static constexpr int planes = 1;  // one SAD a frame
};

// out[i] = SAD(reference picture frame_distance() frames before frames[i],
// frames[i]'s reference picture); 0 where no such picture was held or given.
using Engine = TemporalEngine<uint64_t>;

EXACTVQ_ENGINE_FACTORIES(Engine, EngineSetup)

}  // namespace exactvq::motion
