#include "features/device_backend.h"

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq {

const char* backend_name(Backend b) {
  switch (b) {
    case Backend::kCpu: return "cpu";
    case Backend::kCuda: return "cuda";
    case Backend::kOpenCL: return "opencl";
    case Backend::kAuto: return "auto";
  }
  return "?";
}

#ifndef EXACTVQ_HAVE_CUDA
std::shared_ptr<DeviceBackend> open_cuda_device(const DeviceOptions&, const VideoFormat&) {
  throw DeviceError("this exactvq was built without CUDA");
}
#endif
#ifndef EXACTVQ_HAVE_OPENCL
std::shared_ptr<DeviceBackend> open_opencl_device(const DeviceOptions&, const VideoFormat&) {
  throw DeviceError("this exactvq was built without OpenCL");
}
#endif

std::shared_ptr<DeviceBackend> open_device(const DeviceOptions& o, const VideoFormat& format) {
  std::shared_ptr<DeviceBackend> device;
  switch (o.backend) {
    case Backend::kCpu: return nullptr;
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
        if (o.notice) o.notice(fmt::format("--backend auto: no usable CUDA device ({}); scoring on the CPU", e.what()));
        return nullptr;
      }
      break;
  }
  if (device && o.verbose && o.notice) o.notice(fmt::format("scoring on {}", device->description()));
  return device;
}

}  // namespace exactvq
