// What every metric's OpenCL engine shares: the device, which holds the run's
// frames for all its engines and forgets what it holds when an engine comes or
// goes (opencl_device.h), and the loop over a call's frames, one at a time,
// each scored on the frame as the device holds it (OpenclDevice::score_pair).
// A metric's engine fills in a frame's values (score_frame).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <utility>

#include "backends/opencl/opencl_device.h"

namespace exactvq::opencl {

template <typename Engine>
class DeviceEngine : public Engine {
 public:
  using Value = typename Engine::Value;

  ~DeviceEngine() override {
    if (on_device_) device_->forget();
  }

  int batch_frames() const override { return 1; }

  void score(std::span<const FramePair> frames, std::span<Value> out) override {
    for (size_t i = 0; i < frames.size(); ++i)
      device_->score_pair(frames[i], feature_, [&](const DeviceFrame& f) {
        score_frame(f, out.subspan(i * values_per_frame_, values_per_frame_));
      });
  }

 protected:
  // `feature` names the engine in errors; score() writes `values_per_frame`
  // Values a frame. An engine that scores on the host (`on_device` false) leaves
  // what the device holds alone, and scores itself.
  DeviceEngine(std::shared_ptr<OpenclDevice> device, std::string feature,
               size_t values_per_frame = 1, bool on_device = true)
      : device_(std::move(device)),
        feature_(std::move(feature)),
        values_per_frame_(values_per_frame),
        on_device_(on_device) {
    if (on_device_) device_->forget();  // a new engine: what the device holds may be another run's
  }

  // The values of `frame`, one of score()'s frames.
  virtual void score_frame(const DeviceFrame& frame, std::span<Value> out) = 0;

  OpenclDevice& device() const { return *device_; }
  DeviceContext& context() const { return device_->context(); }

 private:
  std::shared_ptr<OpenclDevice> device_;
  std::string feature_;
  size_t values_per_frame_;
  bool on_device_;
};

}  // namespace exactvq::opencl
