// psnr_hvs's kernels, as the CUDA engine launches them on planes already on the
// device: each block's 64 weighted error terms (block_terms.h, a thread a
// block), then each plane's sequential binary32 sum of its terms (a warp a
// plane of a frame, its lanes loading, every addition in order): the
// definition's order of additions, kept.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "backends/cuda/device_planes.h"

namespace exactvq::psnr_hvs::cuda {

using exactvq::cuda::DevicePlanes;

// A plane's weights on the device: csf[64] then mask[64] (reference.h's
// PlaneWeights), binary32; and the variance scales.
struct BlockWeights {
  const float* weights = nullptr;
  float v64 = 0, v16 = 0;
};

// Writes the terms of every block of `planes` (its frames): frame f's block b
// (raster order) at terms[f * frame_terms + 64 * b], in coefficient order.
// Needs at least one block (planes of 8 x 8 samples or more).
void launch_block_terms(const DevicePlanes& planes, const BlockWeights& w, float* terms,
                        size_t frame_terms, cudaStream_t stream);

// Where a chunk's terms lie for one plane: frame f's `count` terms at
// terms + f * count.
struct PlaneTerms {
  const float* terms = nullptr;
  int64_t count = 0;
};

// sums[f * stride + p] = the sequential binary32 sum (from +0) of plane p's
// terms of frame f, for frames 0 .. frames-1 and planes 0 .. planes-1.
void launch_plane_sums(const PlaneTerms* planes, int plane_count, int frames, float* sums,
                       size_t stride, cudaStream_t stream);

}  // namespace exactvq::psnr_hvs::cuda
