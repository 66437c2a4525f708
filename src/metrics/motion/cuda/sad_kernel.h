// The motion engine's kernel: one frame's SAD (metrics/motion/sad.h) from two
// reference pictures already on the device.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

namespace exactvq::motion::cuda {

// Adds the SAD between `prev` and `cur` (width x height samples each, rows
// stored tightly; 8-bit samples as bytes, else 16-bit) into *sad (zeroed by
// the caller). Exact: integers throughout.
void launch_motion_sad(const void* prev, const void* cur, int width, int height, int bitdepth,
                       uint64_t* sad, cudaStream_t stream);

}  // namespace exactvq::motion::cuda
