// The 8-bit kernel's tuning variants (kernel_variants.h).
#include "bench/cuda/kernel_variants.h"

#include "metrics/ssim/cuda/u8_kernel.cuh"

namespace exactvq::ssim::cuda {

void launch_exact_u8_emulated_variant(const SsimPlanes& planes, ExactWords* sums,
                                      cudaStream_t stream, U8EmulatedVariant v) {
  if (!planes.emulate_fp64)
    throw DeviceError("CUDA 8-bit kernel: these variants are of the emulated term");
  const auto is = [&](int threads, int regs, int rows, int stages = 2) {
    return v.threads == threads && v.max_registers == regs && v.tile_rows == rows &&
           v.stages == stages;
  };
  if (is(128, 96, 62, 1)) return launch<128, 62, 96, true, true, 1>(planes, sums, stream);
  if (is(128, 96, 52, 1)) return launch<128, 52, 96, true, true, 1>(planes, sums, stream);
  if (is(128, 128, 52)) return launch<128, 52, 128, true, true>(planes, sums, stream);
  if (is(128, 128, 72)) return launch<128, 72, 128, true, true>(planes, sums, stream);
  if (is(128, 128, 52, 1)) return launch<128, 52, 128, true, true, 1>(planes, sums, stream);
  if (is(128, 80, 52, 1)) return launch<128, 52, 80, true, true, 1>(planes, sums, stream);
  if (is(128, 96, 42, 1)) return launch<128, 42, 96, true, true, 1>(planes, sums, stream);
  if (is(128, 96, 72, 1)) return launch<128, 72, 96, true, true, 1>(planes, sums, stream);
  if (is(64, 96, 52, 1)) return launch<64, 52, 96, true, true, 1>(planes, sums, stream);
  if (is(160, 96, 52, 1)) return launch<160, 52, 96, true, true, 1>(planes, sums, stream);
  if (is(32, 128, 72)) return launch<32, 72, 128, true, true>(planes, sums, stream);
  throw DeviceError(
      fmt::format("CUDA 8-bit kernel: no emulated variant of {} threads, {} registers, {} tile "
                  "rows, {} staging buffers",
                  v.threads, v.max_registers, v.tile_rows, v.stages));
}

void launch_exact_u8_variant(const SsimPlanes& planes, ExactWords* sums, cudaStream_t stream,
                             U8Variant v) {
  const auto is = [&](int threads, int rows, int regs, bool pipelined) {
    return v.threads == threads && v.tile_rows == rows && v.max_registers == regs &&
           v.pipelined == pipelined;
  };
  if (is(64, 72, 0, true)) return launch<64, 72>(planes, sums, stream);
  if (is(64, 72, 104, true)) return launch<64, 72, 104>(planes, sums, stream);
  if (is(64, 72, 96, true)) return launch<64, 72, 96>(planes, sums, stream);
  if (is(64, 72, 0, false)) return launch<64, 72, 255, false>(planes, sums, stream);
  if (is(128, 72, 0, true)) return launch<128, 72>(planes, sums, stream);  // native only here
  if (is(64, 32, 0, true)) return launch<64, 32>(planes, sums, stream);
  if (is(32, 72, 0, true)) return launch<32, 72>(planes, sums, stream);
  throw DeviceError(fmt::format(
      "CUDA 8-bit kernel: no variant of {} threads, {} rows, {} registers, {}", v.threads,
      v.tile_rows, v.max_registers, v.pipelined ? "pipelined" : "not pipelined"));
}

}  // namespace exactvq::ssim::cuda
