// The psnr engine (metrics/engine.h): each scored plane's sum of squared
// errors, an integer (exact in any order). The feature (psnr_feature.h) turns it into
// decibels. Every engine is a twin of sse_reference (sse.h), tested bit for bit.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "core/picture.h"
#include "core/thread_pool.h"
#include "metrics/engine.h"

namespace exactvq::psnr {

struct EngineSetup {
  VideoFormat format;
  int planes = 1;              // planes 0 .. planes-1 are scored
  ThreadPool* pool = nullptr;  // may be null: one thread
};

// Plane p of frame f's sum of (ref - dist)^2 into out[f * planes + p].
using Engine = FrameEngine<uint64_t>;

EXACTVQ_ENGINE_FACTORIES(Engine, EngineSetup)

}  // namespace exactvq::psnr
