// CUDA runtime errors become DeviceError naming the call that failed.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "core/error.h"

namespace exactvq::cuda {

inline void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the device stays usable
  throw DeviceError(std::string("CUDA ") + what + ": " + cudaGetErrorName(status) + " (" +
                    cudaGetErrorString(status) + ")");
}

}  // namespace exactvq::cuda
