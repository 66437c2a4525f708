// The tile kernels' production launches: exact sums above 8 bits (8-bit planes
// take ssim_kernel_u8.cu's kernel), and the raster mode's term planes at every
// depth, native fp64 or emulated.
#include "metrics/ssim/cuda/ssim_kernels.h"

#include "metrics/ssim/cuda/ssim_kernel_u8.h"
#include "metrics/ssim/cuda/tile_kernel.cuh"

namespace exactvq::ssim::cuda {

void launch_exact(const SsimPlanes& planes, ExactWords* sums, cudaStream_t stream) {
  if (exact_u8_applies(planes)) return launch_exact_u8(planes, sums, stream);
  if (planes.bitdepth <= 12)
    return launch<uint16_t, 1, uint32_t, uint64_t, KernelStage::kFull, false>(planes, sums, nullptr,
                                                                              stream);
  launch<uint16_t, 1, uint64_t, uint64_t, KernelStage::kFull, false>(planes, sums, nullptr, stream);
}

void launch_terms(const SsimPlanes& planes, double* terms, cudaStream_t stream) {
  dispatch<KernelStage::kFull, true>(planes, nullptr, terms, stream);
}

}  // namespace exactvq::ssim::cuda
