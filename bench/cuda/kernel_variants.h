// Tuning-only variants of the ssim engine's CUDA kernels, for the benchmarks and
// their twin rows (tests/twins/): the tile kernel at 8 bits in other shapes and
// stopped after a stage, and the 8-bit kernel in the shapes measured against the
// production one (the first of each list). Not part of the library.
#pragma once

#include <cuda_runtime_api.h>

#include "metrics/ssim/cuda/ssim_kernels.h"

namespace exactvq::ssim::cuda {

// The tile kernel at 8 bits (the production one takes 9..16 bits) in one of its
// shapes, output columns a thread x output rows a block: 1x32 (production's)
// in both fp64 modes, 1x64 and 2x32 native only.
void launch_exact_shape(const SsimPlanes& planes, ExactWords* sums, cudaStream_t stream,
                        int columns_per_thread, int rows);

// The 1x32 tile kernel at 8 bits, native, stopped after a stage: the moments, or
// the moments and the term, folded into a checksum reduced like the sum.
enum class TimedStage { kMoments, kTerm };
void launch_stage(const SsimPlanes& planes, ExactWords* sums, cudaStream_t stream,
                  TimedStage stage);

// The 8-bit kernel, native fp64. threads: output columns a block; tile_rows:
// output rows a block; max_registers: ptxas's cap (0: none); pipelined: the next
// rows' loads in flight while the current ones are filtered.
struct U8Variant {
  int threads = 128;
  int tile_rows = 72;
  int max_registers = 0;
  bool pipelined = true;
};
inline constexpr U8Variant kU8Variants[] = {
    {128, 72, 0, true}, {64, 72, 0, true}, {64, 72, 104, true}, {64, 72, 96, true},
    {64, 72, 0, false}, {64, 32, 0, true}, {32, 72, 0, true}};
void launch_exact_u8_variant(const SsimPlanes& planes, ExactWords* sums, cudaStream_t stream,
                             U8Variant variant);

// The 8-bit kernel with the term emulated (planes.emulate_fp64 set): threads a
// block, ptxas's register cap (0: none), output rows a block (10 k + 2), staging
// buffers (1: half the shared memory, two barriers a chunk).
struct U8EmulatedVariant {
  int threads;
  int max_registers;
  int tile_rows;
  int stages = 2;
};
inline constexpr U8EmulatedVariant kU8EmulatedVariants[] = {
    {128, 96, 62, 1},  {128, 96, 52, 1}, {128, 128, 52},   {128, 128, 72},
    {128, 128, 52, 1}, {128, 80, 52, 1}, {128, 96, 42, 1}, {128, 96, 72, 1},
    {64, 96, 52, 1},   {32, 128, 72},    {160, 96, 52, 1}};
void launch_exact_u8_emulated_variant(const SsimPlanes& planes, ExactWords* sums,
                                      cudaStream_t stream, U8EmulatedVariant variant);

}  // namespace exactvq::ssim::cuda
