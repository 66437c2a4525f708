// SpEED's kernels on an OpenCL device without fp64 (docs/spec/speed.md,
// "Engines"): the binary32 steps as OpenCL's binary32 +, -, * (correctly
// rounded by the standard; contraction off) and its divisions on softfp, every
// binary64 step (the covariance sums, the logarithms, the entropies and the
// score's weights) on softfp, through device_steps.h, the text the CUDA
// kernels and the host tests run too. One work-item an output. Embedded at
// build time.
#pragma OPENCL FP_CONTRACT OFF

#include "metrics/speed/device_steps.h"

// A plane of libvmaf's floats, w x h: a's samples, less b's where has_b (speed_temporal's
// difference of two frames). src_w: the stored planes' row length in samples.
__kernel void speed_load(__global const uchar* a, __global const uchar* b, int has_b, int bitdepth,
                         int w, int h, int src_w, __global float* out) {
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  if (x >= w || y >= h) return;
  const ulong i = (ulong)y * (ulong)src_w + (ulong)x;
  float v = speed_load_sample(a, i, bitdepth);
  if (has_b) v = v - speed_load_sample(b, i, bitdepth);
  out[(ulong)y * (ulong)w + (ulong)x] = v;
}

// The prescale: the w x h resampled plane from the source plane (rows src_w floats).
__kernel void speed_resample(__global const float* src, int src_w, int method, int taps,
                             __global const int* ix, __global const float* wx,
                             __global const int* iy, __global const float* wy, int w, int h,
                             __global float* out) {
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  if (x >= w || y >= h) return;
  out[(ulong)y * (ulong)w + (ulong)x] =
      speed_resample_at(method, src, (ulong)src_w, ix + x * taps, wx + x * taps, iy + y * taps,
                        wy + y * taps, taps);
}

// The anti-alias filter's output at every 16th row and column of the w x h plane.
__kernel void speed_decimate(__global const float* src, int w, int h, __global const float* taps,
                             int count, int dw, int dh, __global float* down) {
  const int j = (int)get_global_id(0), i = (int)get_global_id(1);
  if (j >= dw || i >= dh) return;
  down[(ulong)i * (ulong)dw + (ulong)j] =
      speed_filtered_at(taps, count, speed_floats(src, (ulong)w), w, h, i * 16, j * 16);
}

// The decimated plane less its local mean.
__kernel void speed_residual(__global const float* down, int dw, int dh, __global const float* taps,
                             int count, __global float* residual) {
  const int j = (int)get_global_id(0), i = (int)get_global_id(1);
  if (j >= dw || i >= dh) return;
  const ulong at = (ulong)i * (ulong)dw + (ulong)j;
  residual[at] = down[at] - speed_filtered_at(taps, count, speed_floats(down, (ulong)dw), dw, dh, i, j);
}

// The 25 windows' means.
__kernel void speed_means(__global const float* data, int dw, int sub_w, int sub_h, float count,
                          __global float* means) {
  const int k = (int)get_global_id(0);
  if (k >= SPEED_BLOCK_ELEMENTS) return;
  means[k] = speed_window_mean(data, (ulong)dw, sub_w, sub_h, k, count);
}

// The 325 covariance sums, as binary64 bit patterns.
__kernel void speed_covariance(__global const float* data, int dw, int sub_w, int sub_h,
                               __global const float* means, __global ulong* sums) {
  const int pair = (int)get_global_id(0);
  if (pair >= SPEED_PAIRS) return;
  sums[pair] = speed_d_bits(speed_covariance_sum(data, (ulong)dw, sub_w, sub_h, means, pair));
}

// Each block's entropy and variance; invalid[b] = 1 where a logarithm had no value.
__kernel void speed_blocks(__global const float* data, int dw, int blocks_horizontal, int blocks,
                           __global const float* qt, __global const float* r,
                           __global const float* eigenvalues, int singular, float sigma_nn,
                           ulong log2_2pie, __global float* entropy, __global float* variance,
                           __global int* invalid) {
  const int b = (int)get_global_id(0);
  if (b >= blocks) return;
  float out[2];
  const int valid = speed_block(data, (ulong)dw, blocks_horizontal, b, qt, r, eigenvalues,
                                singular, sigma_nn, log2_2pie, out);
  entropy[b] = out[0];
  variance[b] = out[1];
  invalid[b] = valid ? 0 : 1;
}

// Each block's term of the score; invalid[b] = 1 where a logarithm had no value.
__kernel void speed_terms(__global const float* ref_entropy, __global const float* ref_variance,
                          __global const float* dis_entropy, __global const float* dis_variance,
                          int blocks, float base_entropy, int mode, __global float* terms,
                          __global int* invalid) {
  const int b = (int)get_global_id(0);
  if (b >= blocks) return;
  int valid = 1;
  terms[b] = speed_term(ref_entropy[b], dis_entropy[b], ref_variance[b], dis_variance[b],
                        base_entropy, mode, &valid);
  invalid[b] = valid ? 0 : 1;
}
