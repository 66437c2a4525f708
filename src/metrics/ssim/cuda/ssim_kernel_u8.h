// The 8-bit exact SSIM kernel (ssim_kernel_u8.cu), native fp64 or with the term
// emulated by softfp/: the same per-frame 128-bit sums as launch_exact, from
// fewer instructions a pixel.
#pragma once

#include <cuda_runtime_api.h>

#include "metrics/ssim/cuda/ssim_kernels.h"

namespace exactvq::cuda {

// True when launch_exact_u8 takes these planes: 8-bit samples (either fp64 mode).
inline bool exact_u8_applies(const DevicePlanes& planes) { return planes.bitdepth == 8; }

// Adds each frame's exact sum into sums[frame] (zeroed by the caller), like
// launch_exact's kFull; throws DeviceError unless exact_u8_applies(planes).
void launch_exact_u8(const DevicePlanes& planes, ExactWords* sums, cudaStream_t stream);

// Benchmarks and tests only: the kernel's measured variants. threads: output
// columns a block (32, 64 or 128); tile_rows: output rows a block (32 or 72);
// max_registers: ptxas's cap (0: none); pipelined: the next rows' loads in
// flight while the current ones are filtered. kU8Variants lists those that
// exist, launch_exact_u8's first. Native fp64 only (DeviceError otherwise).
struct U8Variant {
  int threads = 128;
  int tile_rows = 72;
  int max_registers = 0;
  bool pipelined = true;
};
inline constexpr U8Variant kU8Variants[] = {{128, 72, 0, true}, {64, 72, 0, true}, {64, 72, 104, true},
                                            {64, 72, 96, true}, {64, 72, 0, false}, {64, 32, 0, true},
                                            {32, 72, 0, true}};
void launch_exact_u8_variant(const DevicePlanes& planes, ExactWords* sums, cudaStream_t stream,
                             U8Variant variant);

// Benchmarks and tests only: launch_exact_u8 with the term emulated
// (planes.emulate_fp64 must be set) in one of kU8EmulatedVariants (threads a
// block; max_registers: ptxas's cap, 0 for none; tile_rows: output rows a
// block), launch_exact_u8's first.
// The emulated term's registers sit beside the ring's (uncapped ptxas takes
// about 110), its pending windows take shared memory (with two staging
// buffers, four 128-thread blocks an SM; with one, five at 96 registers), and
// a block's warps wait for each other at every staged chunk: blocks of one
// warp wait for none.
struct U8EmulatedVariant {
  int threads;
  int max_registers;
  int tile_rows;  // output rows a block (32 to 112, 10 k + 2)
  int stages = 2;  // staging buffers (1: half the shared memory, two barriers a chunk)
};
inline constexpr U8EmulatedVariant kU8EmulatedVariants[] = {
    {128, 96, 62, 1}, {128, 96, 52, 1}, {128, 128, 52},   {128, 128, 72},  {128, 128, 52, 1}, {128, 80, 52, 1},
    {128, 96, 42, 1}, {128, 96, 72, 1}, {64, 96, 52, 1},  {32, 128, 72},   {160, 96, 52, 1}};
void launch_exact_u8_emulated_variant(const DevicePlanes& planes, ExactWords* sums, cudaStream_t stream,
                                      U8EmulatedVariant variant);

}  // namespace exactvq::cuda
