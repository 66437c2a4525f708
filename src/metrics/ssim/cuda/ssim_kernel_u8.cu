// The 8-bit exact kernel's production launch, native fp64 or emulated.
#include "metrics/ssim/cuda/ssim_kernel_u8.h"

#include "metrics/ssim/cuda/u8_kernel.cuh"

namespace exactvq::ssim::cuda {

// Native: 128 threads, 72-row tiles, no register cap. Emulated: 128 threads, 96
// registers (8 bytes spilled) and one staging buffer, five blocks an SM, 62-row
// tiles (docs/figures.md: the shapes measured).
void launch_exact_u8(const SsimPlanes& planes, ExactWords* sums, cudaStream_t stream) {
  if (planes.emulate_fp64) return launch<128, 62, 96, true, true, 1>(planes, sums, stream);
  launch<128, 72, 255, true, false>(planes, sums, stream);
}

}  // namespace exactvq::ssim::cuda
