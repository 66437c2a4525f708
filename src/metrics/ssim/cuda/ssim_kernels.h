// The ssim engine's kernels, as the CUDA engine launches them on planes already
// on the device.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "backends/cuda/device_planes.h"

namespace exactvq::ssim::cuda {

using exactvq::cuda::DevicePlanes;

// The planes with the way the term is formed: native binary64, or through
// softfp/ on integers (the same bits).
struct SsimPlanes : DevicePlanes {
  bool emulate_fp64 = false;
  SsimPlanes() = default;
  explicit SsimPlanes(const DevicePlanes& planes, bool emulate = false)
      : DevicePlanes(planes), emulate_fp64(emulate) {}
};

// A frame's exact sum of fixed-point terms, two's complement in two words.
struct ExactWords {
  uint64_t lo;
  uint64_t hi;
};

// Adds each frame's sum into sums[frame] (which the caller zeroes first).
void launch_exact(const SsimPlanes& planes, ExactWords* sums, cudaStream_t stream);

// Writes each frame's terms in raster order to terms + frame * width * height.
void launch_terms(const SsimPlanes& planes, double* terms, cudaStream_t stream);

}  // namespace exactvq::ssim::cuda
