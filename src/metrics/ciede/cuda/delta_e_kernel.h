// ciede's per-pixel kernel, as the CUDA engine launches it on frames already on
// the device.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "backends/cuda/device_planes.h"
#include "metrics/ciede/chroma_site.h"

namespace exactvq::ciede::cuda {

using exactvq::cuda::DevicePlanes;

// A chunk's frames: Y, Cb and Cr planes (each `frames` frames on the device),
// the depth and how pixels find their chroma; and how the binary64 steps run:
// native, or on softfp (softfp_delta_e.h) with libm's tables in device memory
// (softfp_tables.h's words).
struct DeltaEFrames {
  DevicePlanes plane[3];
  CiedeChromaReading reading{};
  int bitdepth = 8;
  bool emulate_fp64 = false;
  const uint64_t* tables = nullptr;  // with emulate_fp64
};

// Writes each frame's delta E of every pixel, widened to binary64, in raster
// order to terms + frame * width * height (the luma plane's size).
void launch_delta_e(const DeltaEFrames& frames, double* terms, cudaStream_t stream);

}  // namespace exactvq::ciede::cuda
