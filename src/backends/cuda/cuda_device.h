// The CUDA Device: one GPU chosen with --gpu, on which the metrics' CUDA engines
// (metrics/<metric>/cuda/) run. Everything it owns (runners, streams,
// buffers, injected faults) is its own, so several opened devices can work side
// by side (one per GPU of a multi-GPU run).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cuda/batch_runner.h"
#include "backends/cuda/fault_injection.h"
#include "backends/device.h"

namespace exactvq::cuda {

class CudaDevice final : public Device {
 public:
  // Throws DeviceError when the device cannot be used. `faults`: see fault_injection.h.
  CudaDevice(int ordinal, const VideoFormat& format, Faults faults = {});
  std::string description() const override { return description_; }
  DeviceKind kind() const override { return DeviceKind::kCuda; }
  // `device`, which is of kind kCuda (a metric's CUDA engine factory).
  static CudaDevice& of(Device& device);
  int ordinal() const { return ordinal_; }
  int cuda_ordinal() const override { return ordinal_; }
  // fp64=auto emulates the term where fp64 runs at under 1/8 of the fp32 rate
  // (consumer cards: 1/32 to 1/64); data-centre chips (1/2) keep native fp64.
  bool emulate_by_default() const { return fp32_per_fp64_ > 8; }

  // The runner that uploads frames of `format` once for every engine made for
  // it (made on first use; lives while an engine holds it).
  std::shared_ptr<BatchRunner> runner(const VideoFormat& format);

 private:
  int ordinal_;
  int fp32_per_fp64_ = 0;
  std::string description_;
  std::shared_ptr<Faults> faults_;
  PipelineTuning tuning_ =
      PipelineTuning::from_environment();  // shared with this device's runners only
  std::mutex mutex_;
  std::vector<std::weak_ptr<BatchRunner>> runners_;
};

}  // namespace exactvq::cuda
