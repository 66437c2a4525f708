// The psnr engine: the per-pixel half of the metric, which every device
// implements (backends/device.h): each scored plane's sum of squared errors, an
// integer (exact in any order). The feature (psnr_feature.h) turns it into
// decibels. Every engine is a twin of sse_reference (sse.h), tested bit for bit.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "backends/device_classes.h"
#include "core/picture.h"
#include "core/thread_pool.h"

namespace exactvq::psnr {

struct EngineSetup {
  VideoFormat format;
  int planes = 1;              // planes 0 .. planes-1 are scored
  ThreadPool* pool = nullptr;  // may be null: one thread
};

class Engine {
 public:
  virtual ~Engine() = default;
  // Frame pairs a call should get at once.
  virtual int batch_frames() const = 0;
  // Whether the engine reads pictures only through its CUDA device's upload
  // (see Feature::scores_device_pictures).
  virtual bool takes_device_pictures() const { return false; }
  // Plane p of frame f's sum of (ref - dist)^2 into out[f * planes + p].
  virtual void sse(std::span<const FramePair> frames, std::span<uint64_t> out) = 0;
};

// Each backend's engine (cpu/, cuda/, opencl/ beside this file; split_engine.cpp
// for several devices), made by its Device.
std::unique_ptr<Engine> make_cpu_engine(const EngineSetup& setup);
std::unique_ptr<Engine> make_cuda_engine(cuda::CudaDevice& device, const EngineSetup& setup);
std::unique_ptr<Engine> make_opencl_engine(std::shared_ptr<opencl::OpenclDevice> device,
                                           const EngineSetup& setup);
std::unique_ptr<Engine> make_split_engine(MultiDevice& devices, const EngineSetup& setup);

}  // namespace exactvq::psnr
