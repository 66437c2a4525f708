// libvmaf's raster-order binary64 sums of term arrays already on an OpenCL device, computed
// there (docs/spec/raster_sum.md): each array's terms added one at a time, in order, from +0,
// and the same bits returned, from integer increments per binade reduced in parallel and a
// short sequential replay; integers only (terms are their bits), so any OpenCL device does
// it. The OpenCL twin of backends/cuda/raster_sum.h, with the same layout.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/opencl/opencl_runtime.h"
#include "core/raster_sum_layout.h"

namespace exactvq::opencl {

using RasterSumLayout = RasterSumLayoutOf<cl_mem>;  // terms: binary64 bit patterns

// Device memory RasterSums::enqueue needs as workspace for `layout` (about 70 bytes a 256
// terms).
size_t raster_sum_workspace_bytes(const RasterSumLayout& layout);

// The kernels of one program (OpenclDevice::raster_sum_program), with their work-group sizes
// on the device: the largest power of two up to `largest_group` (at most 256) that the
// device allows; the kernels take any from 32 up. Not for use by two threads at once
// (kernel arguments are state).
class RasterSums {
 public:
  static constexpr size_t kLargestGroup = 256;  // RASTER_GROUP in raster_sum.cl
  static constexpr size_t kLeastGroup = 32;     // an item a chunk of a block
  // Throws DeviceError (also when the device allows fewer than kLeastGroup items).
  RasterSums(DeviceContext& context, cl_program program, size_t largest_group = kLargestGroup);

  // Enqueues in order on the context's queue: sums[f * arrays + a] = the bits of the
  // sequential sum of frame f's array a (`sums`: frames * arrays * 8 bytes of device memory).
  // `workspace`: raster_sum_workspace_bytes(layout) bytes (at least 1). Throws DeviceError on
  // a bad layout or a failed launch.
  void enqueue(const RasterSumLayout& layout, cl_mem sums, cl_mem workspace);

 private:
  DeviceContext& context_;
  Handle<cl_kernel> approximate_, candidates_, records_, replay_;
  size_t block_group_ = 0, array_group_ = 0, replay_group_ = 0;
};

}  // namespace exactvq::opencl
