// The motion engine: the per-pixel half of the metric, which every device
// implements (backends/device.h): each frame's SAD against the reference
// picture frame_distance() frames before it (sad.h), an integer. The engine
// keeps those earlier pictures itself from call to call (on its device), so the
// frames of a run reach it once, in order. The feature (motion_feature.h) turns
// SADs into scores on the host. Every engine is a twin of sad_reference, tested
// bit for bit.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "backends/device_classes.h"
#include "core/picture.h"
#include "core/thread_pool.h"
#include "metrics/motion/options.h"

namespace exactvq::motion {

struct EngineSetup {
  VideoFormat format;
  MotionOptions options;
  ThreadPool* pool = nullptr;       // may be null: one thread
  static constexpr int planes = 1;  // one SAD a frame (for the split engine)
};

class Engine {
 public:
  virtual ~Engine() = default;
  // Frame pairs a call should get at once.
  virtual int batch_frames() const = 0;
  // Whether the engine reads pictures only through its CUDA device's upload
  // (see Feature::scores_device_pictures).
  virtual bool takes_device_pictures() const { return false; }
  // The run's frames before the next call's first (at most frame_distance()
  // of them, the last one last), replacing what the engine held: a run that
  // starts inside a video (MPI ranks).
  virtual void hold(std::span<const FramePair> before) = 0;
  // out[i] = SAD(reference picture frame_distance() frames before frames[i],
  // frames[i]'s reference picture); 0 where no such picture was held or given.
  // frames continue the run where the previous call (or hold) left it.
  virtual void sads(std::span<const FramePair> frames, std::span<uint64_t> out) = 0;
};

// Each backend's engine (cpu/, cuda/, opencl/ beside this file; split_engine.cpp for
// several devices), made by its Device.
std::unique_ptr<Engine> make_cpu_engine(const EngineSetup& setup);
std::unique_ptr<Engine> make_cuda_engine(cuda::CudaDevice& device, const EngineSetup& setup);
std::unique_ptr<Engine> make_split_engine(MultiDevice& devices, const EngineSetup& setup);
std::unique_ptr<Engine> make_opencl_engine(std::shared_ptr<opencl::OpenclDevice> device,
                                           const EngineSetup& setup);

}  // namespace exactvq::motion
