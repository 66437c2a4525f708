// The SSIM kernels' host interface: launches on planes already on the device.
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

// What the exact kernel computes; everything but kFull exists to time stages.
enum class KernelStage {
  kFull,     // moments, term, fixed point and reduction
  kMoments,  // moments only, folded into a checksum that is reduced like the sum
  kTerm,     // moments and term, the term's bits folded into that checksum
};

// Adds each frame's sum into sums[frame] (which the caller zeroes first).
void launch_exact(const DevicePlanes& planes, ExactWords* sums, cudaStream_t stream,
                  KernelStage stage = KernelStage::kFull);

// Writes each frame's terms in raster order to terms + frame * width * height.
void launch_terms(const DevicePlanes& planes, double* terms, cudaStream_t stream);

// Benchmarks and tests only: launch_exact (kFull) with another tile shape, for
// 8-bit planes. Shapes (output columns a thread x output rows a block): 1x32
// (launch_exact's) in both fp64 modes, 1x64 and 2x32 native only.
void launch_exact_shape(const DevicePlanes& planes, ExactWords* sums, cudaStream_t stream,
                        int columns_per_thread, int rows);

}  // namespace exactvq::cuda
