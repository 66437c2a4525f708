// The ssim engine (metrics/engine.h): for each frame pair of a batch and each
// scored plane, the sum of the plane's terms, as the exact fixed-point sum or as
// libvmaf's raster-order binary64 sum. The feature (ssim_feature.h) turns the
// sums into scores. Every engine is a twin of the scalar reference
// (reference.h), tested bit for bit (tests/twins/).
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "core/picture.h"
#include "core/thread_pool.h"
#include "metrics/engine.h"
#include "metrics/ssim/fixed_point.h"
#include "metrics/ssim/options.h"

namespace exactvq::ssim {

struct EngineSetup {
  VideoFormat format;
  int planes = 1;  // planes 0 .. planes-1 are scored
  SumMode mode = SumMode::kExact;
  Fp64Mode fp64 = Fp64Mode::kAuto;
  ThreadPool* pool = nullptr;  // may be null: one thread
};

// A plane's sum: the setup's mode says which one is set. kExact: the sum of
// to_fixed64(term) over the plane's pixels. kRaster: the plane's terms added one
// at a time in binary64, rows top to bottom, each left to right
// (add_in_raster_order).
struct PlaneSum {
  int128 exact = 0;
  double raster = 0.0;
};

// Plane p of frame f's sum into out[f * planes + p].
using Engine = FrameEngine<PlaneSum>;

// An engine that computes the two sums into arrays of their own.
class SumEngine : public Engine {
 public:
  explicit SumEngine(SumMode mode) : mode_(mode) {}
  void score(std::span<const FramePair> frames, std::span<PlaneSum> out) final {
    if (mode_ == SumMode::kExact) {
      exact_.assign(out.size(), 0);
      exact_sums(frames, exact_);
      for (size_t i = 0; i < out.size(); ++i) out[i].exact = exact_[i];
    } else {
      raster_.assign(out.size(), 0.0);
      raster_sums(frames, raster_);
      for (size_t i = 0; i < out.size(); ++i) out[i].raster = raster_[i];
    }
  }

 protected:
  virtual void exact_sums(std::span<const FramePair> frames, std::span<int128> out) = 0;
  virtual void raster_sums(std::span<const FramePair> frames, std::span<double> out) = 0;

 private:
  SumMode mode_;
  std::vector<int128> exact_;
  std::vector<double> raster_;
};

EXACTVQ_ENGINE_FACTORIES(Engine, EngineSetup)

}  // namespace exactvq::ssim
