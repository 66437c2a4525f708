// The ssim engine's kernels, as the CUDA engine launches them on planes already
// on the device.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace exactvq::cuda {

// The same plane of `frames` frames, stored one after another on the device.
struct DevicePlanes {
  const void* ref = nullptr;
  const void* dist = nullptr;
  size_t frame_stride = 0;  // bytes from one frame's plane to the next
  int width = 0;            // samples; rows are stored tightly
  int height = 0;
  int bitdepth = 8;  // 8: uint8_t samples, 9..16: uint16_t
  int frames = 1;
  bool emulate_fp64 = false;  // the term through softfp/ on integers (same bits)
};

// A frame's exact sum of fixed-point terms, two's complement in two words.
struct ExactWords {
  uint64_t lo;
  uint64_t hi;
};

// Adds each frame's sum into sums[frame] (which the caller zeroes first).
void launch_exact(const DevicePlanes& planes, ExactWords* sums, cudaStream_t stream);

// Writes each frame's terms in raster order to terms + frame * width * height.
void launch_terms(const DevicePlanes& planes, double* terms, cudaStream_t stream);

}  // namespace exactvq::cuda
