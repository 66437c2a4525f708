// A GPU backend: one opened device that makes the features it can compute.
// Each backend lives in its own folder (src/cuda, src/opencl) and is compiled in
// only when its toolkit is found (EXACTVQ_HAVE_CUDA, EXACTVQ_HAVE_OPENCL).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "metrics/feature.h"

namespace exactvq {

struct DeviceOptions {
  Backend backend = Backend::kCpu;
  int gpu = 0;            // --gpu N: the CUDA device
  int opencl_device = 0;  // --opencl-device N: index over all platforms' devices
  // Backend options given as `--feature ssim=fp64=emulate` etc. are parsed by the
  // backend's own factories; this is only where the device is chosen.
  // Notes for standard error (device chosen, fallback to the CPU); may be null.
  std::function<void(const std::string&)> notice;
  bool verbose = false;  // also say which device was chosen
  // --gpus: score on several devices of the backend at once, frames shared out
  // among them (features/multi_device.h). `gpus` lists device numbers (CUDA
  // ordinals, or OpenCL numbers as --opencl-device counts them), distinct;
  // `gpu_count` > 0 takes the first that many; kAllDevices every one present.
  // Both unset: the one device of `gpu` / `opencl_device`.
  static constexpr int kAllDevices = -1;
  std::vector<int> gpus;
  int gpu_count = 0;
  // A device opened by the caller (tests, embedders), used instead of opening one.
  std::shared_ptr<DeviceBackend> opened;

  bool several_devices() const { return !gpus.empty() || gpu_count != 0; }
};

class DeviceBackend {
 public:
  virtual ~DeviceBackend() = default;
  // e.g. "cuda device 0: NVIDIA H200 (sm_90)".
  virtual std::string description() const = 0;
  // The feature on this device, or null when this backend does not compute it.
  // Throws UsageError on bad options and DeviceError on device failures.
  virtual std::unique_ptr<Feature> make_feature(const FeatureSpec& spec,
                                                const FeatureContext& ctx) = 0;
};

// Opens the device `o` asks for: null for the CPU; for kAuto the best device
// present, or null (and a notice) when none can be used. Throws DeviceError when
// an explicitly requested backend is missing, not compiled in, or fails. With
// several_devices(), one device per number listed, behind a MultiDeviceBackend
// (just the device when one is listed); UsageError for --gpus with the CPU, a
// number the backend does not have, or a repeated number.
std::shared_ptr<DeviceBackend> open_device(const DeviceOptions& o, const VideoFormat& format);

// How many devices `backend` (kCuda or kOpenCL) has; 0 when it has none or is not
// compiled in.
int count_devices(Backend backend);

// Defined by each compiled-in backend; throw DeviceError when unusable.
std::shared_ptr<DeviceBackend> open_cuda_device(const DeviceOptions& o, const VideoFormat& format);
std::shared_ptr<DeviceBackend> open_opencl_device(const DeviceOptions& o, const VideoFormat& format);

}  // namespace exactvq
