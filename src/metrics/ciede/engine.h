// The ciede engine (metrics/engine.h): each frame's sum of the pixels' delta E,
// added in raster order in binary64 as libvmaf adds it. The feature
// (ciede_feature.h) turns it into the score. Every engine is a twin of
// delta_e_sum_reference (reference.h), tested bit for bit.
#pragma once

#include <memory>

#include "core/picture.h"
#include "core/thread_pool.h"
#include "metrics/engine.h"

namespace exactvq::ciede {

struct EngineSetup {
  static constexpr int planes = 1;  // one sum a frame
  VideoFormat format;
  ThreadPool* pool = nullptr;  // may be null: one thread
};

// Frame f's sum of delta E into out[f].
using Engine = FrameEngine<double>;

EXACTVQ_ENGINE_FACTORIES(Engine, EngineSetup)

// Why ciede refuses OpenCL devices (the refusal's words).
inline constexpr const char* kNoOpenclEngine =
    "ciede has no OpenCL engine yet: OpenCL C has no binary64 here, and softfp (binary64 on "
    "integers) has no forms of glibc's pow, powf, atan2, sin, cos and exp, which each pixel's "
    "delta E calls; score ciede on the CPU or a CUDA device";

}  // namespace exactvq::ciede
