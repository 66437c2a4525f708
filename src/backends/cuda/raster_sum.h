// libvmaf's raster-order binary64 sums of term arrays already on a CUDA device, computed
// there (docs/spec/raster_sum.md): each array's terms added one at a time, in order, from +0,
// and the same bits returned, from integer increments per binade reduced in parallel and a
// short sequential replay. For any engine whose definition sums binary64 terms in order.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "core/raster_sum_layout.h"

namespace exactvq::cuda {

using RasterSumLayout = RasterSumLayoutOf<const double*>;  // terms in device memory

// Device memory launch_raster_sums needs as workspace for `layout` (about 70 bytes a 256
// terms).
size_t raster_sum_workspace_bytes(const RasterSumLayout& layout);

// Enqueues on `stream`: sums[f * arrays + a] = the sequential sum of frame f's array a (device
// memory). `workspace` (raster_sum_workspace_bytes(layout) bytes of device memory) must not be
// in use by work on another stream. Throws DeviceError on a bad layout or a failed launch.
void launch_raster_sums(const RasterSumLayout& layout, double* sums, void* workspace,
                        cudaStream_t stream);

}  // namespace exactvq::cuda
