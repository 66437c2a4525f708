// The 8-bit exact SSIM kernel (ssim_kernel_u8.cu), native fp64 or with the term
// emulated by softfp/: the same per-frame 128-bit sums as launch_exact, from
// fewer instructions a pixel.
#pragma once

#include <cuda_runtime_api.h>

#include "metrics/ssim/cuda/ssim_kernels.h"

namespace exactvq::ssim::cuda {

// True when launch_exact_u8 takes these planes: 8-bit samples (either fp64 mode).
inline bool exact_u8_applies(const SsimPlanes& planes) { return planes.bitdepth == 8; }

// Adds each frame's exact sum into sums[frame] (zeroed by the caller), like
// launch_exact's kFull; throws DeviceError unless exact_u8_applies(planes).
void launch_exact_u8(const SsimPlanes& planes, ExactWords* sums, cudaStream_t stream);

}  // namespace exactvq::ssim::cuda
