// libvmaf's raster-order binary64 sums of term arrays already on a CUDA device, computed
// there (docs/spec/raster_sum.md): each array's terms added one at a time, in order, from +0,
// and the same bits returned, from integer increments per binade reduced in parallel and a
// short sequential replay. For any engine whose definition sums binary64 terms in order.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "backends/cuda/cuda_resources.h"
#include "core/raster_sum_layout.h"

namespace exactvq::cuda {

using RasterSumLayout = RasterSumLayoutOf<const double*>;  // terms in device memory

// Device memory launch_raster_sums needs as workspace for `layout` (about 70 bytes a 256
// terms).
size_t raster_sum_workspace_bytes(const RasterSumLayout& layout);

// A lane's device memory for raster sums: a chunk's terms and launch_raster_sums' workspace,
// which work on another lane's stream never touches.
struct RasterSumLane {
  DeviceBuffer terms;
  DeviceBuffer workspace;
};

// `lanes` lanes, each with `term_bytes` of terms and the workspace of `largest` (the layout of
// the largest call, a whole chunk's), at least 8 bytes.
inline std::vector<RasterSumLane> allocate_raster_sum_lanes(int lanes, size_t term_bytes,
                                                            const RasterSumLayout& largest) {
  const size_t workspace = std::max<size_t>(8, raster_sum_workspace_bytes(largest));
  std::vector<RasterSumLane> out;
  for (int i = 0; i < lanes; ++i)
    out.push_back({DeviceBuffer(term_bytes), DeviceBuffer(workspace)});
  return out;
}

// Enqueues on `stream`: sums[f * arrays + a] = the sequential sum of frame f's array a (device
// memory). `workspace` (raster_sum_workspace_bytes(layout) bytes of device memory) must not be
// in use by work on another stream. Throws DeviceError on a bad layout or a failed launch.
void launch_raster_sums(const RasterSumLayout& layout, double* sums, void* workspace,
                        cudaStream_t stream);

}  // namespace exactvq::cuda
