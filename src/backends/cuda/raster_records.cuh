// Device helpers of the raster-order sum (raster_sum.cu): run records
// (core/binade_step.h) moved between the lanes of a warp and composed in lane order.
#pragma once

#include "core/binade_step.h"

namespace exactvq::cuda {

__device__ __forceinline__ exactvq_run_record shuffle_down(const exactvq_run_record& r,
                                                           int offset) {
  exactvq_run_record o;
#pragma unroll
  for (int p = 0; p < 2; ++p) {
    o.k[p] = __shfl_down_sync(0xffffffffu, static_cast<long long>(r.k[p]), offset);
    o.lo[p] = __shfl_down_sync(0xffffffffu, static_cast<long long>(r.lo[p]), offset);
    o.hi[p] = __shfl_down_sync(0xffffffffu, static_cast<long long>(r.hi[p]), offset);
  }
  o.exponent = __shfl_down_sync(0xffffffffu, r.exponent, offset);
  o.flags = __shfl_down_sync(0xffffffffu, r.flags, offset);
  return o;
}

// The composition of the 32 lanes' records in lane order, in lane 0 (a tree: lane i takes
// lane i + 1's, then i + 2's pair, ...; composition is associative). Every lane calls it.
__device__ __forceinline__ exactvq_run_record compose_warp(exactvq_run_record r) {
  const int lane = int(threadIdx.x % 32);
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const exactvq_run_record next = shuffle_down(r, offset);
    if (lane % (2 * offset) == 0) r = exactvq_run_then(r, next);
  }
  return r;
}

}  // namespace exactvq::cuda
