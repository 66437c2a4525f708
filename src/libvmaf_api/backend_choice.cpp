#include "libvmaf_api/backend_choice.h"

#include <charconv>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"

namespace exactvq::libvmaf_api {

namespace {

int parse_device(const char* text) {
  int value = -1;
  const char* end = text + std::strlen(text);
  const auto [ptr, ec] = std::from_chars(text, end, value);
  if (ec != std::errc() || ptr != end || value < 0)
    throw UsageError(
        fmt::format("{}='{}': expected a device number (0, 1, ...)", kGpuVariable, text));
  return value;
}

const char* device_kind(Backend b) { return b == Backend::kCuda ? "CUDA" : "OpenCL"; }

// Throws DeviceError unless `backend` has device `index`.
void check_device(Backend backend, const char* value, int index) {
  const int count = count_devices(backend);
  if (count == 0) {
#if !defined(EXACTVQ_HAVE_CUDA)
    if (backend == Backend::kCuda)
      throw DeviceError(
          fmt::format("{}={}: this libvmaf.so.3 was built without CUDA", kBackendVariable, value));
#endif
#if !defined(EXACTVQ_HAVE_OPENCL)
    if (backend == Backend::kOpenCL)
      throw DeviceError(fmt::format("{}={}: this libvmaf.so.3 was built without OpenCL",
                                    kBackendVariable, value));
#endif
    throw DeviceError(fmt::format("{}={}: no {} device is usable here", kBackendVariable, value,
                                  device_kind(backend)));
  }
  if (index >= count)
    throw DeviceError(fmt::format("{}={} with {}={}: there {} {} {} device{} (0 to {})",
                                  kBackendVariable, value, kGpuVariable, index,
                                  count == 1 ? "is" : "are", count, device_kind(backend),
                                  count == 1 ? "" : "s", count - 1));
}

}  // namespace

std::optional<BackendChoice> choose_backend(const char* backend, const char* gpu,
                                            std::string* fallback) {
  const bool has_backend = backend && *backend;
  std::optional<int> device;
  if (gpu && *gpu) device = parse_device(gpu);
  if (!has_backend) {
    if (device)
      throw UsageError(fmt::format("{}={} names a device, but {} is not set (cuda, opencl or auto)",
                                   kGpuVariable, gpu, kBackendVariable));
    return std::nullopt;
  }
  const std::string value = backend;
  BackendChoice c;
  c.device = device;
  if (value == "cpu") {
    if (device)
      throw UsageError(
          fmt::format("{}={} names a device, but {} is cpu", kGpuVariable, gpu, kBackendVariable));
    c.backend = EXACTVQ_BACKEND_CPU;
  } else if (value == "cuda") {
    check_device(Backend::kCuda, backend, device.value_or(0));
    c.backend = EXACTVQ_BACKEND_CUDA;
  } else if (value == "opencl") {
    check_device(Backend::kOpenCL, backend, device.value_or(0));
    c.backend = EXACTVQ_BACKEND_OPENCL;
  } else if (value == "auto") {
    try {
      check_device(Backend::kCuda, backend, device.value_or(0));
      c.backend = EXACTVQ_BACKEND_CUDA;
    } catch (const DeviceError& e) {
      if (fallback) *fallback = fmt::format("{}; scoring on the CPU", e.what());
      c.backend = EXACTVQ_BACKEND_CPU;
      c.device.reset();
    }
  } else {
    throw UsageError(
        fmt::format("{}='{}': expected cpu, cuda, opencl or auto", kBackendVariable, value));
  }
  return c;
}

std::optional<BackendChoice> backend_from_environment(std::string* fallback) {
  return choose_backend(std::getenv(kBackendVariable), std::getenv(kGpuVariable), fallback);
}

}  // namespace exactvq::libvmaf_api
