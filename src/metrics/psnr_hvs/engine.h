// The psnr_hvs engine (metrics/engine.h): each plane's error sum, one binary32
// a plane (reference.h's plane_error_sum_reference, whose order of additions is the
// definition). The feature (psnr_hvs_feature.h) turns the sums into decibels.
// Every engine is a twin of the reference, tested bit for bit.
#pragma once

#include <memory>

#include "core/picture.h"
#include "core/thread_pool.h"
#include "metrics/engine.h"

namespace exactvq::psnr_hvs {

struct EngineSetup {
  VideoFormat format;
  int planes = 3;              // always Y, Cb and Cr
  ThreadPool* pool = nullptr;  // may be null: one thread
  // OpenCL: the divisions and the square root on softfp even where the device rounds its own
  // correctly (tests of the softfp kernels on such a device).
  bool softfp_divide_sqrt = false;
};

// Plane p of frame f's error sum into out[f * 3 + p].
using Engine = FrameEngine<float>;

EXACTVQ_ENGINE_FACTORIES(Engine, EngineSetup)

}  // namespace exactvq::psnr_hvs
