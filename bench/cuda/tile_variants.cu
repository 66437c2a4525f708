// The tile kernel's tuning variants (kernel_variants.h).
#include "bench/cuda/kernel_variants.h"

#include "metrics/ssim/cuda/tile_kernel.cuh"

namespace exactvq::ssim::cuda {

void launch_exact_shape(const SsimPlanes& planes, ExactWords* sums, cudaStream_t stream,
                        int columns_per_thread, int rows) {
  if (planes.bitdepth != 8)
    throw DeviceError("CUDA kernel: tile shapes exist for 8-bit planes only");
  using F = uint32_t;
  constexpr KernelStage kF = KernelStage::kFull;
  if (columns_per_thread == 1 && rows == 32)
    return launch<uint8_t, 1, F, F, kF, false, 32, true>(planes, sums, nullptr, stream);
  if (planes.emulate_fp64)
    throw DeviceError("CUDA kernel: the emulated term has the 1x32 tile shape only");
  if (columns_per_thread == 1 && rows == 64)
    return launch<uint8_t, 1, F, F, kF, false, 64, false>(planes, sums, nullptr, stream);
  if (columns_per_thread == 2 && rows == 32)
    return launch<uint8_t, 2, F, F, kF, false, 32, false>(planes, sums, nullptr, stream);
  throw DeviceError(fmt::format("CUDA kernel: no tile shape of {} columns a thread by {} rows",
                                columns_per_thread, rows));
}

void launch_stage(const SsimPlanes& planes, ExactWords* sums, cudaStream_t stream,
                  TimedStage stage) {
  if (planes.bitdepth != 8 || planes.emulate_fp64)
    throw DeviceError(
        "CUDA kernel: stage timing variants exist for 8-bit planes and native fp64 only");
  if (stage == TimedStage::kMoments)
    return launch<uint8_t, 1, uint32_t, uint32_t, KernelStage::kMoments, false>(planes, sums,
                                                                                nullptr, stream);
  launch<uint8_t, 1, uint32_t, uint32_t, KernelStage::kTerm, false>(planes, sums, nullptr, stream);
}

}  // namespace exactvq::ssim::cuda
