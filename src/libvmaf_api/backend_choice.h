// The backend a libvmaf program's contexts score on, chosen from outside the
// program: EXACTVQ_LIBVMAF_BACKEND (cpu, cuda, opencl, auto) and
// EXACTVQ_LIBVMAF_GPU (the device's number), read by vmaf_init. libvmaf's API
// reaches CUDA only through vmaf_cuda_import_state, which programs such as
// FFmpeg 5.1's libvmaf filter never call.
#pragma once

#include <optional>
#include <string>

#include "exactvq/exactvq.h"

namespace exactvq::libvmaf_api {

inline constexpr const char* kBackendVariable = "EXACTVQ_LIBVMAF_BACKEND";
inline constexpr const char* kGpuVariable = "EXACTVQ_LIBVMAF_GPU";

struct BackendChoice {
  exactvq_backend backend = EXACTVQ_BACKEND_CPU;  // CPU, CUDA or OpenCL (auto resolved)
  std::optional<int> device;                      // EXACTVQ_LIBVMAF_GPU, when set
};

// The choice the two variables make, given their values (null: unset; empty
// counts as unset); nullopt when the backend is unset. Checks the device now,
// so that a context fails at vmaf_init: throws UsageError naming the variable
// for a value it does not know, DeviceError for a backend not compiled in or a
// device not there. `auto` is CUDA when the device is there, else the CPU, said
// through `fallback` (a line for the log).
std::optional<BackendChoice> choose_backend(const char* backend, const char* gpu,
                                            std::string* fallback);

// choose_backend over the process's environment.
std::optional<BackendChoice> backend_from_environment(std::string* fallback);

}  // namespace exactvq::libvmaf_api
