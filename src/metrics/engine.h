// The one shape of every metric's engine: the per-pixel half of a metric, which
// each backend implements and the metric's Feature (its host half) calls. A call
// scores a batch of frame pairs and writes a fixed number of values a frame
// (Setup::planes: one a plane, or one a frame), each a twin of the metric's
// scalar reference, tested bit for bit. A temporal engine also reads the frames
// before each one (motion's SAD), and can be handed them (a run that starts
// inside a video).
//
// Each metric makes its own engines (metrics/<metric>/engine.cpp, with
// make_engine.h); devices name no metric.
#pragma once

#include <memory>
#include <span>

#include "core/picture.h"

namespace exactvq {

template <typename V>
class FrameEngine {
 public:
  using Value = V;
  virtual ~FrameEngine() = default;
  // Frame pairs a call should get at once (see Feature::batch_frames); a call may
  // get fewer.
  virtual int batch_frames() const = 0;
  // Whether the engine reads pictures only through its CUDA device's upload
  // (see Feature::scores_device_pictures).
  virtual bool takes_device_pictures() const { return false; }
  // Frame f's values into out[f * per_frame .. (f + 1) * per_frame).
  virtual void score(std::span<const FramePair> frames, std::span<Value> out) = 0;
};

// Marks the temporal engines, whatever their values (backends/multi/ runs them
// on one device).
class TemporalEngineBase {
 public:
  virtual ~TemporalEngineBase() = default;
  // The run's frames before the next call's first (the last one last),
  // replacing what the engine held: a run that starts inside a video.
  virtual void hold(std::span<const FramePair> before) = 0;
};

// score() continues the run where the previous call (or hold) left it.
template <typename V>
class TemporalEngine : public FrameEngine<V>, public TemporalEngineBase {};

class Device;

}  // namespace exactvq

// Declares, in a metric's namespace, its make_engine() (its engine.cpp: the
// engine of a setup on any device, DeviceError where there is none) and each
// backend's factory (its cpu/, cuda/ and opencl/ folders), which engine.cpp lists.
#define EXACTVQ_ENGINE_FACTORIES(Engine, Setup)                                       \
  std::unique_ptr<Engine> make_engine(::exactvq::Device& device, const Setup& setup); \
  namespace cpu {                                                                     \
  std::unique_ptr<Engine> make_engine(::exactvq::Device& device, const Setup& setup); \
  }                                                                                   \
  namespace cuda {                                                                    \
  std::unique_ptr<Engine> make_engine(::exactvq::Device& device, const Setup& setup); \
  }                                                                                   \
  namespace opencl {                                                                  \
  std::unique_ptr<Engine> make_engine(::exactvq::Device& device, const Setup& setup); \
  }
