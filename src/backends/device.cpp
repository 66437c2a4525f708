#include "backends/device.h"

#include <algorithm>

#include <fmt/format.h>

#include "backends/cpu/simd_targets.h"
#include "backends/multi/multi_device.h"
#include "core/error.h"

namespace exactvq {

const char* backend_name(Backend b) {
  switch (b) {
    case Backend::kCpu:
      return "cpu";
    case Backend::kCuda:
      return "cuda";
    case Backend::kOpenCL:
      return "opencl";
    case Backend::kAuto:
      return "auto";
  }
  return "?";
}

std::string Device::failure_in(std::string_view, std::string_view message) const {
  return std::string(message);
}

#ifndef EXACTVQ_HAVE_CUDA
std::shared_ptr<Device> open_cuda_device(const DeviceOptions&, const VideoFormat&) {
  throw DeviceError("this exactvq was built without CUDA");
}
int count_cuda_devices() { return 0; }
void start_cuda_warmup(int) {}
void finish_cuda_warmup(int) {}
#endif
#ifndef EXACTVQ_HAVE_OPENCL
std::shared_ptr<Device> open_opencl_device(const DeviceOptions&, const VideoFormat&) {
  throw DeviceError("this exactvq was built without OpenCL");
}
int count_opencl_devices() { return 0; }
#endif

int count_devices(Backend backend) {
  if (backend == Backend::kCuda) return count_cuda_devices();
  if (backend == Backend::kOpenCL) return count_opencl_devices();
  return 0;
}

namespace {

std::string gpus_text(const DeviceOptions& o) {
  if (o.gpu_count == DeviceOptions::kAllDevices) return "all";
  if (o.gpu_count > 0) return std::to_string(o.gpu_count);
  return fmt::format("{}", fmt::join(o.gpus, ","));
}

// --gpus: the device numbers asked for, checked against the `count` present.
std::vector<int> chosen_devices(const DeviceOptions& o, Backend backend, int count) {
  const std::string what = fmt::format("--gpus {}", gpus_text(o));
  const char* kind = backend == Backend::kCuda ? "CUDA" : "OpenCL";
  auto present = [&] {
    return count == 0 ? fmt::format("there is no {} device", kind)
                      : fmt::format("there {} {} {} device{} (0..{})", count == 1 ? "is" : "are",
                                    count, kind, count == 1 ? "" : "s", count - 1);
  };
  std::vector<int> list;
  if (o.gpu_count == DeviceOptions::kAllDevices || o.gpu_count > 0) {
    const int n = o.gpu_count > 0 ? o.gpu_count : count;
    if (n > count || n == 0) throw UsageError(fmt::format("{}: {}", what, present()));
    for (int i = 0; i < n; ++i) list.push_back(i);
    return list;
  }
  if (o.gpus.empty()) throw UsageError("--gpus: expected all, a count or a list of device numbers");
  for (size_t i = 0; i < o.gpus.size(); ++i) {
    const int g = o.gpus[i];
    if (g < 0 || g >= count)
      throw UsageError(fmt::format("{}: no {} device {}: {}", what, kind, g, present()));
    if (std::find(o.gpus.begin(), o.gpus.begin() + ptrdiff_t(i), g) !=
        o.gpus.begin() + ptrdiff_t(i))
      throw UsageError(fmt::format("{}: device {} is listed twice", what, g));
    list.push_back(g);
  }
  return list;
}

std::shared_ptr<Device> open_devices(const DeviceOptions& o, const VideoFormat& format) {
  Backend backend = o.backend;
  if (backend == Backend::kCpu)
    throw UsageError(
        fmt::format("--gpus {} needs a device backend (--backend cuda, opencl or auto), "
                    "not the CPU",
                    gpus_text(o)));
  if (backend == Backend::kAuto) {
    backend = Backend::kCuda;  // as for one device: only CUDA is tried
    if (count_devices(backend) == 0) {
      if (o.notice)
        o.notice(fmt::format("--backend auto --gpus {}: no usable CUDA device; scoring on the CPU",
                             gpus_text(o)));
      return nullptr;
    }
  }
  const int count = count_devices(backend);
  if (count == 0) {
    // Why there is none: the single-device open says (not compiled in, no driver...).
    DeviceOptions first = o;
    first.gpu = first.opencl_device = 0;
    try {
      backend == Backend::kCuda ? open_cuda_device(first, format)
                                : open_opencl_device(first, format);
    } catch (const DeviceError& e) {
      throw DeviceError(fmt::format("--backend {} --gpus {}: {}", backend_name(o.backend),
                                    gpus_text(o), e.what()));
    }
    throw DeviceError(fmt::format("--backend {} --gpus {}: no device found",
                                  backend_name(o.backend), gpus_text(o)));
  }
  const std::vector<int> list = chosen_devices(o, backend, count);
  std::vector<std::shared_ptr<Device>> devices;
  for (int number : list) {
    DeviceOptions one = o;
    one.gpus.clear();
    one.gpu_count = 0;
    one.gpu = one.opencl_device = number;
    try {
      devices.push_back(backend == Backend::kCuda ? open_cuda_device(one, format)
                                                  : open_opencl_device(one, format));
    } catch (const DeviceError& e) {
      throw DeviceError(fmt::format("--backend {} --gpus {}: device {}: {}",
                                    backend_name(o.backend), gpus_text(o), number, e.what()));
    }
    if (o.verbose && o.notice)
      o.notice(fmt::format("scoring on {} ({} of {})", devices.back()->description(),
                           devices.size(), list.size()));
  }
  if (devices.size() == 1) return devices[0];
  return std::make_shared<MultiDevice>(std::move(devices));
}

}  // namespace

DeviceWarmup::DeviceWarmup(const DeviceOptions& o) {
  if (o.opened || (o.backend != Backend::kCuda && o.backend != Backend::kAuto)) return;
  if (!o.several_devices())
    ordinals_ = {o.gpu};
  else if (o.gpu_count > 0)
    for (int i = 0; i < o.gpu_count; ++i) ordinals_.push_back(i);
  else
    ordinals_ = o.gpus;  // kAllDevices: the count is not known without CUDA itself
  for (int ordinal : ordinals_) start_cuda_warmup(ordinal);
}

DeviceWarmup::~DeviceWarmup() {
  for (int ordinal : ordinals_) finish_cuda_warmup(ordinal);
}

std::shared_ptr<Device> open_device(const DeviceOptions& o, const VideoFormat& format) {
  if (o.opened) return o.opened;
  // Before anything is scored: a bad EXACTVQ_SIMD stops the run here, whatever the backend.
  cpu::apply_simd_environment();
  if (o.several_devices()) return open_devices(o, format);
  std::shared_ptr<Device> device;
  switch (o.backend) {
    case Backend::kCpu:
      if (o.verbose && o.notice) o.notice(fmt::format("scoring on {}", cpu_device().description()));
      return nullptr;
    case Backend::kCuda:
    case Backend::kOpenCL:
      try {
        device = o.backend == Backend::kCuda ? open_cuda_device(o, format)
                                             : open_opencl_device(o, format);
      } catch (const DeviceError& e) {
        throw DeviceError(fmt::format("--backend {}: {}", backend_name(o.backend), e.what()));
      }
      break;
    case Backend::kAuto:
      // Only CUDA is tried: an OpenCL device may be the CPU itself (PoCL), slower
      // than the native CPU backend.
      try {
        device = open_cuda_device(o, format);
      } catch (const DeviceError& e) {
        if (o.notice)
          o.notice(fmt::format("--backend auto: no usable CUDA device ({}); scoring on the CPU",
                               e.what()));
        return nullptr;
      }
      break;
  }
  if (device && o.verbose && o.notice)
    o.notice(fmt::format("scoring on {}", device->description()));
  return device;
}

}  // namespace exactvq
