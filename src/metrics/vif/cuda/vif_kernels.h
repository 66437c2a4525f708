// The vif engine's kernels, as the CUDA engine launches them on planes already
// on the device: a level's statistic (its integer sums) and the halving that
// makes the next level. Pictures of at least 16x16 only, whose four levels all
// have two or more rows and columns (the edges' closed form, definition.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace exactvq::vif::cuda {

// One pyramid level of `frames` frames, each frame's plane `frame_stride`
// bytes after the previous; rows stored tightly.
struct VifLevelPlanes {
  const void* ref = nullptr;
  const void* dist = nullptr;
  size_t frame_stride = 0;
  int width = 0;
  int height = 0;
  bool bytes = false;  // 8-bit samples (level 0 of 8-bit video); else 16-bit
  int frames = 1;
  bool emulate_fp64 = false;  // the statistic's gain steps through softfp/ on integers (same bits)
};

// A level's Gaussian (vif/taps.h): 17, 9, 5 or 3 taps.
struct VifFilter {
  uint32_t taps[17] = {};
  int count = 0;
};

// Adds a level's sums of each frame f into sums[f * sums_stride + 0..3]
// (num_log, den_log, num_non_log, den_non_log as two's complement words;
// zeroed by the caller), with the level's filter and its vertical pass's
// rounding shifts. `table`: the 32768 log2 entries on the device.
void launch_vif_statistic(const VifLevelPlanes& planes, const VifFilter& filter, int mean_shift,
                          int square_shift, double gain_limit, const uint16_t* table,
                          uint64_t* sums, size_t sums_stride, cudaStream_t stream);

// The next level of each frame, blurred with its filter (the vertical pass
// rounded by `shift`, the horizontal by 16): ref_out and dist_out hold
// floor(width / 2) x floor(height / 2) 16-bit samples a frame, out_stride
// bytes apart.
void launch_vif_halve(const VifLevelPlanes& planes, const VifFilter& next, int shift,
                      uint16_t* ref_out, uint16_t* dist_out, size_t out_stride,
                      cudaStream_t stream);

}  // namespace exactvq::vif::cuda
