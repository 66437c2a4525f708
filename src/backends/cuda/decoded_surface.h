// The layouts a hardware decoder (NVDEC through libavcodec) leaves its frames
// in, in CUDA device memory, and the kernel that turns one plane of such a
// frame into a plane of exactvq's planar pictures.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace exactvq::cuda {

// One output plane's source: `width` x `height` samples read at
// src + y * src_stride, element x * step + offset of the row (step 2, offset
// 0 or 1: the Cb or Cr half of an interleaved CbCr plane, as NV12 and P010
// hold them). Samples are 1 or 2 bytes (`bytes`); 2-byte samples carry the
// value in their high bits, shifted left by `shift` (P010: 6 for 10 bits).
struct SurfacePlane {
  const uint8_t* src = nullptr;
  ptrdiff_t src_stride = 0;
  int step = 1;
  int offset = 0;
  int bytes = 1;
  int shift = 0;
  int width = 0;
  int height = 0;
};

// Writes the plane's samples, shifted right by `shift`, as packed rows
// (width samples a row) at `dst`; the raster index of the first sample whose
// low `shift` bits are not all zero (a value that is not a `16 - shift`-bit
// sample) goes to *first_stray, which the caller fills with UINT64_MAX.
void launch_surface_plane(const SurfacePlane& plane, uint8_t* dst, unsigned long long* first_stray,
                          cudaStream_t stream);

}  // namespace exactvq::cuda
