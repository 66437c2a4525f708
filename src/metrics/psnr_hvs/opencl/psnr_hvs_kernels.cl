// psnr_hvs's kernels on an OpenCL device: indexing only; the arithmetic is
// block_terms.h's, the same text as the CUDA kernels' and the host tests'
// (binary32 +, -, * correctly rounded by the standard, contraction off). The
// divisions and the square root: the device's binary32 `/` and sqrt where the
// engine built the program with -cl-fp32-correctly-rounded-divide-sqrt and
// PSNR_HVS_IEEE_DIVIDE_SQRT defined, else softfp. Embedded at build time.
#pragma OPENCL FP_CONTRACT OFF

#include "metrics/psnr_hvs/block_terms.h"

#if defined(PSNR_HVS_IEEE_DIVIDE_SQRT)
#define PSNR_HVS_SOFT 0
#else
#define PSNR_HVS_SOFT 1
#endif

// One work-item a block of a `width` x `height` plane (8-bit samples, or
// 16-bit with `wide`), `across` blocks a row, `blocks` in all: its terms at
// terms[terms_offset + 64 * block]. weights: csf[64] then mask[64] of each
// plane; this plane's are at weights[128 * plane].
__kernel void psnr_hvs_block_terms_kernel(__global const uchar* ref, __global const uchar* dist,
                                          int width, int wide, int across, int blocks,
                                          __global const float* weights, int plane, float v64,
                                          float v16,
                                          __global float* terms, long terms_offset) {
  const int b = (int)get_global_id(0);
  if (b >= blocks) return;
  const int x = PSNR_HVS_STEP * (b % across), y = PSNR_HVS_STEP * (b / across);
  int rb[PSNR_HVS_COEFFICIENTS], db[PSNR_HVS_COEFFICIENTS];
  for (int i = 0; i < PSNR_HVS_BLOCK; ++i)
    for (int j = 0; j < PSNR_HVS_BLOCK; ++j) {
      const size_t at = (size_t)(y + i) * (size_t)width + (size_t)(x + j);
      rb[i * PSNR_HVS_BLOCK + j] = wide ? (int)((__global const ushort*)ref)[at] : (int)ref[at];
      db[i * PSNR_HVS_BLOCK + j] = wide ? (int)((__global const ushort*)dist)[at] : (int)dist[at];
    }
  __global const float* csf = weights + 2 * PSNR_HVS_COEFFICIENTS * plane;
  psnr_hvs_block_terms(rb, db, csf, csf + PSNR_HVS_COEFFICIENTS, v64, v16, PSNR_HVS_SOFT,
                       terms + terms_offset + (long)b * PSNR_HVS_COEFFICIENTS);
}

// One work-item a plane: sums[p] = the sequential binary32 sum of the plane's
// count_p terms, which lie at terms[offset_p].
__kernel void psnr_hvs_plane_sums_kernel(__global const float* terms, long offset0, long count0,
                                         long offset1, long count1, long offset2, long count2,
                                         int planes, __global float* sums) {
  const int p = (int)get_global_id(0);
  if (p >= planes) return;
  const long offset = p == 0 ? offset0 : p == 1 ? offset1 : offset2;
  const long count = p == 0 ? count0 : p == 1 ? count1 : count2;
  sums[p] = psnr_hvs_plane_sum(terms + offset, count);
}
