// The adm engine: the per-sample half of the metric, which every device
// implements (backends/device.h): for each frame pair of a batch, each scale's
// integer sums (reference.h's AdmSums, adm_integer_sums). The feature
// (adm_feature.h) turns them into scores on the host (adm_scores_from_sums).
// Every engine is a twin of the scalar reference, tested bit for bit.
#pragma once

#include <memory>
#include <span>

#include "backends/device_classes.h"
#include "core/picture.h"
#include "core/thread_pool.h"
#include "metrics/adm/options.h"
#include "metrics/adm/reference.h"

namespace exactvq::adm {

struct EngineSetup {
  VideoFormat format;
  AdmOptions options;
  ThreadPool* pool = nullptr;  // may be null: one thread
  static constexpr int planes = 1;  // one AdmSums a frame (for the split engine)
};

class Engine {
 public:
  virtual ~Engine() = default;
  // Frame pairs a call should get at once.
  virtual int batch_frames() const = 0;
  // Whether the engine reads pictures only through its CUDA device's upload
  // (see Feature::scores_device_pictures).
  virtual bool takes_device_pictures() const { return false; }
  // Frame f's sums into out[f].
  virtual void integer_sums(std::span<const FramePair> frames, std::span<AdmSums> out) = 0;
};

// Each backend's engine (cpu/, cuda/, opencl/ beside this file; split_engine.cpp for
// several devices), made by its Device.
std::unique_ptr<Engine> make_cpu_engine(const EngineSetup& setup);
std::unique_ptr<Engine> make_cuda_engine(cuda::CudaDevice& device, const EngineSetup& setup);
std::unique_ptr<Engine> make_opencl_engine(std::shared_ptr<opencl::OpenclDevice> device, const EngineSetup& setup);
std::unique_ptr<Engine> make_split_engine(MultiDevice& devices, const EngineSetup& setup);

}  // namespace exactvq::adm
