// A block's 128-bit exact sum, added into a frame's sum: warp shuffles, shared
// memory, then two 64-bit integer atomics. Integer addition: any order of the
// threads, warps and blocks gives the same bits. Every SSIM kernel ends with it.
#pragma once

#include <cstdint>

#include "metrics/ssim/cuda/device_term.cuh"
#include "metrics/ssim/cuda/ssim_kernels.h"

namespace exactvq::ssim::cuda {

// Call from every thread of a block of kThreads threads (a multiple of 32).
template <int kThreads>
__device__ __forceinline__ void add_block_sum(Int128Words acc, ExactWords* sum) {
  static_assert(kThreads % 32 == 0);
  for (int offset = 16; offset > 0; offset /= 2) {
    const uint64_t lo = __shfl_down_sync(0xffffffffu, acc.lo, offset);
    const uint64_t hi = __shfl_down_sync(0xffffffffu, acc.hi, offset);
    acc.add(lo, hi);
  }
  __shared__ Int128Words warp_sums[kThreads / 32];
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x != 0) return;
  Int128Words block = warp_sums[0];
  for (int i = 1; i < kThreads / 32; ++i) block.add(warp_sums[i].lo, warp_sums[i].hi);
  auto* lo = reinterpret_cast<unsigned long long*>(&sum->lo);
  auto* hi = reinterpret_cast<unsigned long long*>(&sum->hi);
  const unsigned long long old = atomicAdd(lo, block.lo);
  const unsigned long long carry = old + block.lo < old ? 1 : 0;
  atomicAdd(hi, block.hi + carry);
}

}  // namespace exactvq::ssim::cuda
