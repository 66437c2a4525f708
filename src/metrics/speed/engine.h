// The SpEED engines: the per-pixel half of speed_chroma and speed_temporal
// (metrics/engine.h), each a pair's SpEED score in binary32 (reference.h) and
// whether a covariance matrix was singular. The features (speed_feature.h)
// turn them into libvmaf's values on the host. Every engine is a twin of
// reference.cpp's Scorer, tested bit for bit.
#pragma once

#include <memory>

#include "core/picture.h"
#include "core/thread_pool.h"
#include "metrics/engine.h"
#include "metrics/speed/options.h"
#include "metrics/speed/reference.h"

namespace exactvq::speed {

// The chroma planes' size libvmaf scores: half the luma's, rounded down, in
// each subsampled direction (not the stored ceil(W/2)).
int chroma_width(const VideoFormat& f);
int chroma_height(const VideoFormat& f);

namespace chroma {
// speed_chroma: each frame's U then V score.
struct EngineSetup {
  VideoFormat format;
  SpeedOptions options;
  ThreadPool* pool = nullptr;       // may be null: one thread
  static constexpr int planes = 2;  // U, V
};
using Engine = FrameEngine<PairScore>;
EXACTVQ_ENGINE_FACTORIES(Engine, EngineSetup)
}  // namespace chroma

namespace temporal {
// speed_temporal: each frame's score of the luma differences with the frame
// before ({0, false} where no frame before was held or given).
struct EngineSetup {
  VideoFormat format;
  SpeedOptions options;
  ThreadPool* pool = nullptr;
  static constexpr int planes = 1;
};
using Engine = TemporalEngine<PairScore>;
EXACTVQ_ENGINE_FACTORIES(Engine, EngineSetup)
}  // namespace temporal

}  // namespace exactvq::speed
