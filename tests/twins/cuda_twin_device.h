// The CUDA device the engine rows run on, opened once for every file of the
// table, or why it cannot be (the rows then report it as unavailable).
#pragma once

#include <memory>
#include <string>

#include "backends/device.h"
#include "core/error.h"

namespace exactvq::twins {

struct OpenedDevice {
  std::shared_ptr<Device> device;
  std::string why;
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

}  // namespace exactvq::twins
