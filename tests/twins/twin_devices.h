// The devices the engine rows run on, each opened once for every file of the
// table: the CPU (its SIMD target forced by the row), three CPU devices as one,
// CUDA and OpenCL. A device this machine lacks makes its rows unavailable.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/cpu_device.h"
#include "backends/device.h"
#include "backends/multi/multi_device.h"
#include "core/error.h"

namespace exactvq::twins {

inline std::shared_ptr<Device> cpu_twin_device() {
  static const std::shared_ptr<Device> device(&cpu_device(), [](Device*) {});
  return device;
}

// Every batch split between the three (backends/multi/).
inline std::shared_ptr<Device> split_cpu_device() {
  static const std::shared_ptr<Device> device =
      std::make_shared<MultiDevice>(std::vector<std::shared_ptr<Device>>{
          std::make_shared<CpuDevice>(), std::make_shared<CpuDevice>(),
          std::make_shared<CpuDevice>()});
  return device;
}

struct OpenedDevice {
  std::shared_ptr<Device> device;
  std::string why;  // empty: the device is open
};

inline const OpenedDevice& cuda_device() {
  static const OpenedDevice opened = [] {
    OpenedDevice o;
    if (count_devices(Backend::kCuda) == 0) {
      o.why = "no usable CUDA device";
      return o;
    }
    DeviceOptions options;
    options.backend = Backend::kCuda;
    try {
      o.device = open_cuda_device(options, VideoFormat{16, 16, ChromaFormat::k420, 8});
    } catch (const DeviceError& e) {
      o.why = std::string("no usable CUDA device (") + e.what() + ")";
    }
    return o;
  }();
  return opened;
}

// No OpenCL device at all is a skip (opencl_missing); a device present that
// cannot be opened (or cannot build the kernels) fails the row that opens it.
inline std::string opencl_missing() {
  return count_devices(Backend::kOpenCL) == 0 ? "no OpenCL device (the ICD loader found none)" : "";
}

inline std::shared_ptr<Device> opencl_device() {
  static const std::shared_ptr<Device> device = [] {
    DeviceOptions options;
    options.backend = Backend::kOpenCL;
    return open_opencl_device(options, VideoFormat{16, 16, ChromaFormat::k420, 8});
  }();
  return device;
}

}  // namespace exactvq::twins
