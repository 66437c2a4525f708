// The float_ssim engine: the per-pixel half of float_ssim and float_ms_ssim,
// which every backend implements (metrics/engine.h): for each frame pair of a
// batch, the SSIM means of each scale (docs/spec/float_ssim.md, "SSIM of one
// scale", steps 1-6: conversion, downscaling, windows, terms, raster-order
// sums, means). The feature (float_ssim_feature.h) turns them into scores on
// the host with the C library (pow, log10: ssim_scores, ms_ssim_scores). Every
// engine is a twin of the scalar reference's float_ssim_means and
// float_ms_ssim_means, tested bit for bit.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "core/picture.h"
#include "core/thread_pool.h"
#include "metrics/engine.h"
#include "metrics/float_ssim/reference.h"
#include "metrics/ssim/options.h"

namespace exactvq::float_ssim {

struct EngineSetup {
  VideoFormat format;  // the luma plane is scored
  // float_ms_ssim's five scales (each the last halved with the low-pass table),
  // or float_ssim's one, box-filtered by `factor` first where it is above 1
  // (ssim_scale of the picture's size and the scale option).
  bool multiscale = false;
  int factor = 1;
  // The means the feature reads: the SSIM mean (float_ssim), the l, c and s
  // means (float_ssim's enable_lcs, float_ms_ssim). An engine may leave the
  // others unset (0).
  bool ssim_mean = true;
  bool lcs_means = false;
  ssim::Fp64Mode fp64 = ssim::Fp64Mode::kAuto;
  ThreadPool* pool = nullptr;       // may be null: one thread
  static constexpr int planes = 1;  // one FrameMeans a frame
};

// One scale as the device engines lay it out: its plane's size and its window
// positions (ow x oh; none on a side under the window).
struct ScaleGeometry {
  int width = 0, height = 0;
  int ow = 0, oh = 0;
};

// The setup's scales, first to last: float_ssim's one after its box filter, or
// float_ms_ssim's five, each the last halved.
inline std::vector<ScaleGeometry> scale_geometry(const EngineSetup& s) {
  int w = s.format.width, h = s.format.height;
  if (!s.multiscale && s.factor > 1) {
    w = decimated_size(w, s.factor);
    h = decimated_size(h, s.factor);
  }
  std::vector<ScaleGeometry> scales;
  for (int i = 0; i < (s.multiscale ? kScales : 1); ++i) {
    if (i > 0) {
      w = decimated_size(w, 2);
      h = decimated_size(h, 2);
    }
    scales.push_back({w, h, w - (kWindow - 1), h - (kWindow - 1)});
  }
  return scales;
}

// One frame's means: scale 0 only for float_ssim, scales 0..4 for float_ms_ssim.
struct FrameMeans {
  ScaleMeans scales{};
};

// Frame f's means into out[f].
using Engine = FrameEngine<FrameMeans>;

EXACTVQ_ENGINE_FACTORIES(Engine, EngineSetup)

}  // namespace exactvq::float_ssim
