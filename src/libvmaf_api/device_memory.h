// CUDA device memory for pictures (the CUDA runtime where compiled in; without
// it every allocation fails).
#pragma once

#include <cstddef>

namespace exactvq::libvmaf_api {

// A zeroed block of `bytes` on CUDA device `device`, or null.
void* allocate_device_block(size_t bytes, int device);
void free_device_block(void* block, int device);

}  // namespace exactvq::libvmaf_api
