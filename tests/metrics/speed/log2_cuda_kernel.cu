// The pinned log2 on a CUDA device, both forms SpEED's kernels use: native
// binary64 (libm/log2_double.h) and softfp (libm/log2_softfp.h), one thread an
// operand. Built like the library's kernels (-fmad=false).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "libm/log2_double.h"
#include "libm/log2_softfp.h"

namespace {

__global__ void log2_kernel(const uint64_t* in, size_t n, uint64_t* native, uint64_t* soft,
                            int* soft_valid) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  native[i] = exactvq_f64_bits(exactvq_log2_f64(exactvq_f64_of_bits(in[i])));
  const softfp s = softfp_log2(softfp_from_bits(in[i]));
  soft_valid[i] = softfp_is_valid(s);
  soft[i] = soft_valid[i] ? softfp_to_bits(s) : 0;
}

}  // namespace

// Returns a CUDA error string, or null on success.
const char* exactvq_log2_on_cuda(const uint64_t* in, size_t n, uint64_t* native, uint64_t* soft,
                                 int* soft_valid) {
  uint64_t *d_in = nullptr, *d_native = nullptr, *d_soft = nullptr;
  int* d_valid = nullptr;
  cudaError_t e = cudaMalloc(&d_in, n * 8);
  if (e == cudaSuccess) e = cudaMalloc(&d_native, n * 8);
  if (e == cudaSuccess) e = cudaMalloc(&d_soft, n * 8);
  if (e == cudaSuccess) e = cudaMalloc(&d_valid, n * sizeof(int));
  if (e == cudaSuccess) e = cudaMemcpy(d_in, in, n * 8, cudaMemcpyHostToDevice);
  if (e == cudaSuccess) {
    log2_kernel<<<unsigned((n + 255) / 256), 256>>>(d_in, n, d_native, d_soft, d_valid);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaMemcpy(native, d_native, n * 8, cudaMemcpyDeviceToHost);
  if (e == cudaSuccess) e = cudaMemcpy(soft, d_soft, n * 8, cudaMemcpyDeviceToHost);
  if (e == cudaSuccess)
    e = cudaMemcpy(soft_valid, d_valid, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_native);
  cudaFree(d_soft);
  cudaFree(d_valid);
  return e == cudaSuccess ? nullptr : cudaGetErrorString(e);
}
