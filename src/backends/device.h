// Where metrics run: the plumbing of one place that computes (streams, pools,
// uploads, program caches), and nothing of any metric. A metric's Feature makes
// its own engine for the run's device (metrics/<metric>/engine.cpp asks the
// device its kind, dav1d's DSP-context idea run one way), the narrow set of
// per-pixel operations, and does the rest (options, names, scores) on the host
// itself. The CPU is a device (backends/cpu/); CUDA and OpenCL devices are
// compiled in when their toolkits are found (EXACTVQ_HAVE_CUDA,
// EXACTVQ_HAVE_OPENCL); a MultiDevice (backends/multi/) shares every batch out
// among several.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/picture.h"
#include "metrics/feature.h"

namespace exactvq {

enum class Backend { kCpu, kCuda, kOpenCL, kAuto };

const char* backend_name(Backend b);  // "cpu", "cuda", "opencl", "auto"

// What a device is, for the metrics' engine factories (metrics/engine.h): each
// metric makes its own engine for the device's kind; the device names no metric.
enum class DeviceKind {
  kCpu,      // backends/cpu/
  kCuda,     // backends/cuda/: a cuda::CudaDevice
  kOpenCL,   // backends/opencl/: an opencl::OpenclDevice
  kSeveral,  // backends/multi/: a MultiDevice
  kOther,    // a device no metric has an engine for (tests)
};

class Device {
 public:
  virtual ~Device() = default;
  // e.g. "cuda device 0: NVIDIA H200 (sm_90)".
  virtual std::string description() const = 0;
  // The CUDA device whose memory the engines' uploads may copy pictures from
  // (Picture::in_device_memory), or -1.
  virtual int cuda_ordinal() const { return -1; }
  virtual DeviceKind kind() const { return DeviceKind::kOther; }
  // The message of a DeviceError met while making `feature`'s engine on this
  // device, as the run reports it (a device may name itself there).
  virtual std::string failure_in(std::string_view feature, std::string_view message) const;
};

// The host CPU (Highway SIMD engines, threads from the setup's pool).
Device& cpu_device();

// The device a feature's engine comes from: ctx.device, or the CPU when null.
inline Device& device_of(const FeatureContext& ctx) {
  return ctx.device ? *ctx.device : cpu_device();
}

struct DeviceOptions {
  Backend backend = Backend::kCpu;
  int gpu = 0;            // --gpu N: the CUDA device
  int opencl_device = 0;  // --opencl-device N: index over all platforms' devices
  // Notes for standard error (device chosen, fallback to the CPU); may be null.
  std::function<void(const std::string&)> notice;
  bool verbose = false;  // also say which device was chosen
  // --gpus: score on several devices of the backend at once, frames shared out
  // among them (backends/multi/). `gpus` lists device numbers (CUDA ordinals,
  // or OpenCL numbers as --opencl-device counts them), distinct; `gpu_count` > 0
  // takes the first that many; kAllDevices every one present. Both unset: the
  // one device of `gpu` / `opencl_device`.
  static constexpr int kAllDevices = -1;
  std::vector<int> gpus;
  int gpu_count = 0;
  // A device opened by the caller (tests, embedders), used instead of opening one.
  std::shared_ptr<Device> opened;

  bool several_devices() const { return !gpus.empty() || gpu_count != 0; }
};

// Opens the device `o` asks for: null for the CPU; for kAuto the best device
// present, or null (and a notice) when none can be used. Throws DeviceError when
// an explicitly requested backend is missing, not compiled in, or fails. With
// several_devices(), one device per number listed, behind a MultiDevice (just
// the device when one is listed); UsageError for --gpus with the CPU, a number
// the backend does not have, or a repeated number.
std::shared_ptr<Device> open_device(const DeviceOptions& o, const VideoFormat& format);

// Starts creating the CUDA context of the device `o` names (kCuda or kAuto, one
// device or a --gpus list) on a thread of its own, so that it overlaps what
// the run does before its first GPU call (options, models, opening the
// inputs); open_device waits for it. Joined by the destructor; nothing for the
// CPU, OpenCL or a build without CUDA.
class DeviceWarmup {
 public:
  explicit DeviceWarmup(const DeviceOptions& o);
  ~DeviceWarmup();
  DeviceWarmup(const DeviceWarmup&) = delete;
  DeviceWarmup& operator=(const DeviceWarmup&) = delete;

 private:
  std::vector<int> ordinals_;
};

// How many devices `backend` (kCuda or kOpenCL) has; 0 when it has none or is not
// compiled in.
int count_devices(Backend backend);

// Defined by each compiled-in backend (stubs otherwise); throw DeviceError when
// unusable.
std::shared_ptr<Device> open_cuda_device(const DeviceOptions& o, const VideoFormat& format);
std::shared_ptr<Device> open_opencl_device(const DeviceOptions& o, const VideoFormat& format);
int count_cuda_devices();
// The CUDA half of DeviceWarmup (stubs without CUDA): start, and wait for
// (a no-op when none was started) one ordinal's context creation.
void start_cuda_warmup(int ordinal);
void finish_cuda_warmup(int ordinal);
int count_opencl_devices();

}  // namespace exactvq
