// The ssim engine: the per-pixel half of the metric, which every device
// implements (backends/device.h): for each frame pair of a batch and each scored
// plane, the sum of the plane's terms, as the exact fixed-point sum or as
// libvmaf's raster-order binary64 sum. The feature (ssim_feature.h) turns the
// sums into scores. Every engine is a twin of the scalar reference
// (reference.h), tested bit for bit (tests/twins/).
#pragma once

#include <memory>
#include <span>

#include "backends/device_classes.h"
#include "core/picture.h"
#include "core/thread_pool.h"
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

class Engine {
 public:
  virtual ~Engine() = default;
  // Frame pairs a call should get at once (see Feature::batch_frames).
  virtual int batch_frames() const = 0;
  // Whether the engine reads pictures only through its CUDA device's upload
  // (see Feature::scores_device_pictures).
  virtual bool takes_device_pictures() const { return false; }
  // Engines of SumMode::kExact: plane p of frame f's sum of to_fixed64(term)
  // over its pixels into out[f * planes + p].
  virtual void exact_sums(std::span<const FramePair> frames, std::span<int128> out) = 0;
  // Engines of SumMode::kRaster: the plane's terms added one at a time in
  // binary64, rows top to bottom, each left to right (add_in_raster_order).
  virtual void raster_sums(std::span<const FramePair> frames, std::span<double> out) = 0;
};

// Each backend's engine (cpu/, cuda/, opencl/ beside this file; split_engine.cpp
// for several devices), made by its Device.
std::unique_ptr<Engine> make_cpu_engine(const EngineSetup& setup);
std::unique_ptr<Engine> make_cuda_engine(cuda::CudaDevice& device, const EngineSetup& setup);
std::unique_ptr<Engine> make_opencl_engine(std::shared_ptr<opencl::OpenclDevice> device,
                                           const EngineSetup& setup);
std::unique_ptr<Engine> make_split_engine(MultiDevice& devices, const EngineSetup& setup);

}  // namespace exactvq::ssim
