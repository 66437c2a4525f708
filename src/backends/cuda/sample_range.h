// The device half of GatheredPictures' sample check.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace exactvq::cuda {

// For each of `planes` planes of uint16 samples (width x height, packed rows),
// the first planes_apart bytes apart from `base`: the raster index of the first
// sample above `max` into first_above[k], which holds UINT64_MAX where none is
// (the caller fills it so first).
void launch_first_sample_above(const unsigned char* base, size_t planes_apart, int planes,
                               int width, int height, unsigned max, unsigned long long* first_above,
                               cudaStream_t stream);

}  // namespace exactvq::cuda
