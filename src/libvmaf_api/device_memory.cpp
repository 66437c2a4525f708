#include "libvmaf_api/device_memory.h"

#ifdef EXACTVQ_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace exactvq::libvmaf_api {

#ifdef EXACTVQ_HAVE_CUDA

void* allocate_device_block(size_t bytes, int device) {
  void* block = nullptr;
  if (cudaSetDevice(device) != cudaSuccess ||
      cudaMalloc(&block, bytes == 0 ? 1 : bytes) != cudaSuccess) {
    cudaGetLastError();  // clear the runtime's error
    return nullptr;
  }
  if (cudaMemset(block, 0, bytes) != cudaSuccess) {
    cudaGetLastError();
    cudaFree(block);
    return nullptr;
  }
  return block;
}

void free_device_block(void* block, int device) {
  if (!block) return;
  cudaSetDevice(device);
  cudaFree(block);
}

#else

void* allocate_device_block(size_t, int) { return nullptr; }
void free_device_block(void*, int) {}

#endif

}  // namespace exactvq::libvmaf_api
