// The psnr feature's sum of squared errors per frame plane, on the device.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "backends/cuda/device_planes.h"

namespace exactvq::psnr::cuda {

using exactvq::cuda::DevicePlanes;

// Adds each frame's sum of (ref - dist)^2 into sse[frame] (zeroed by the caller).
// Exact: integers throughout, below 2^64 for any plane exactvq accepts.
void launch_sse(const DevicePlanes& planes, uint64_t* sse, cudaStream_t stream);

}  // namespace exactvq::psnr::cuda
