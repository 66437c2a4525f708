// The ciede engine (metrics/engine.h): each frame's sum of the pixels' delta E,
// added in raster order in binary64 as libvmaf adds it. The feature
// (ciede_feature.h) turns it into the score. Every engine is a twin of
// delta_e_sum_reference (reference.h), tested bit for bit.
#pragma once

#include <memory>

#include "core/picture.h"
#include "core/thread_pool.h"
#include "metrics/engine.h"
#include "metrics/fp64_mode.h"

namespace exactvq::ciede {

struct EngineSetup {
  static constexpr int planes = 1;  // one sum a frame
  VideoFormat format;
  ThreadPool* pool = nullptr;       // may be null: one thread
  Fp64Mode fp64 = Fp64Mode::kAuto;  // CUDA: native binary64 or softfp (the same bits)
};

// Frame f's sum of delta E into out[f].
using Engine = FrameEngine<double>;

EXACTVQ_ENGINE_FACTORIES(Engine, EngineSetup)

}  // namespace exactvq::ciede
