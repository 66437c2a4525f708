// The ssim engine's kernels in OpenCL C without double: integer moments, the
// binary64 term emulated by softfp (metrics/ssim/softfp_term.h, one source with
// the CPU tests and CUDA), and either the exact 2^-64 fixed-point sums per
// work-group or the term's bits for the host's raster-order sum. Embedded at
// build time (exactvq_embed_opencl pastes each included header in its place).
#include "metrics/ssim/definition.h"
#include "metrics/ssim/softfp_term.h"

#define SSIM_RADIUS EXACTVQ_SSIM_RADIUS
#define SSIM_TAPS EXACTVQ_SSIM_TAPS

__constant uint kTap[SSIM_TAPS] = {EXACTVQ_SSIM_TAP_LIST};

static inline uint load_sample(__global const uchar* plane, int index, int wide) {
  return wide ? (uint)((__global const ushort*)plane)[index] : (uint)plane[index];
}

// Horizontal moments at (x, y), stored at y * width + x; returns the squared
// error of the sample there (libvmaf psnr's term, for the SSE computed in the
// same pass when a psnr feature shares the frame).
static inline ulong horizontal_at(__global const uchar* ref, __global const uchar* dist, int x,
                                  int y, int width, int wide, __global uint* hm, __global uint* hn,
                                  __global ulong* hxx, __global ulong* hxy, __global ulong* hyy) {
  uint m = 0, n = 0;
  ulong xx = 0, xy = 0, yy = 0;
  const int row = y * width;
  for (int k = 0; k < SSIM_TAPS; ++k) {
    const int xi = x - SSIM_RADIUS + k;
    if (xi < 0 || xi >= width) continue;
    const uint g = kTap[k];
    const ulong s = load_sample(ref, row + xi, wide), d = load_sample(dist, row + xi, wide);
    m += g * (uint)s;
    n += g * (uint)d;
    xx += g * s * s;
    xy += g * s * d;
    yy += g * d * d;
  }
  const int i = row + x;
  hm[i] = m;
  hn[i] = n;
  hxx[i] = xx;
  hxy[i] = xy;
  hyy[i] = yy;
  const long e = (long)load_sample(ref, i, wide) - (long)load_sample(dist, i, wide);
  return (ulong)(e * e);
}

// Horizontal pass: one work item per sample position (x, row).
__kernel void ssim_horizontal(__global const uchar* ref, __global const uchar* dist, int width,
                              int height, int wide, __global uint* hm, __global uint* hn,
                              __global ulong* hxx, __global ulong* hxy, __global ulong* hyy) {
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  if (x >= width || y >= height) return;
  horizontal_at(ref, dist, x, y, width, wide, hm, hn, hxx, hxy, hyy);
}

// The same, and the sum of squared errors of each work-group's samples in
// sse[group] (64-bit integers: the order of the sums does not matter). Local
// size: a power of two, at most SSIM_GROUP items; the global size may exceed the
// plane (items outside it add nothing).
#define SSIM_GROUP 256
__kernel void ssim_horizontal_sse(__global const uchar* ref, __global const uchar* dist, int width,
                                  int height, int wide, __global uint* hm, __global uint* hn,
                                  __global ulong* hxx, __global ulong* hxy, __global ulong* hyy,
                                  __global ulong* sse) {
  __local ulong sums[SSIM_GROUP];
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  ulong e = 0;
  if (x < width && y < height) e = horizontal_at(ref, dist, x, y, width, wide, hm, hn, hxx, hxy, hyy);
  const int lid = (int)(get_local_id(1) * get_local_size(0) + get_local_id(0));
  const int size = (int)(get_local_size(0) * get_local_size(1));
  sums[lid] = e;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int half_size = size / 2; half_size > 0; half_size /= 2) {
    if (lid < half_size) sums[lid] += sums[lid + half_size];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) sse[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = sums[0];
}

// Vertical pass and term: one work item per pixel. `raster`: write the term's
// binary64 bits; otherwise the work-group's sum of round_half_even(term * 2^64)
// (128-bit, two's complement) goes to partial[2 * group], partial[2 * group + 1].
// Local size: a power of two, at most SSIM_GROUP items.
__kernel void ssim_terms(__global const uint* hm, __global const uint* hn,
                         __global const ulong* hxx, __global const ulong* hxy,
                         __global const ulong* hyy, int width, int height, ulong mm_k1_bits,
                         ulong mm_k2_bits, int raster, __global ulong* term_bits,
                         __global ulong* partial, __global int* invalid) {
  __local ulong sum_lo[SSIM_GROUP];
  __local ulong sum_hi[SSIM_GROUP];
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  softfp_i128 q;
  q.lo = 0;
  q.hi = 0;
  if (x < width && y < height) {
    softfp_moments mo;
    mo.mux = 0;
    mo.muy = 0;
    mo.x2 = 0;
    mo.xy = 0;
    mo.y2 = 0;
    for (int k = 0; k < SSIM_TAPS; ++k) {
      const int yi = y - SSIM_RADIUS + k;
      if (yi < 0 || yi >= height) continue;
      const ulong g = kTap[k];
      const int i = yi * width + x;
      mo.mux += g * hm[i];
      mo.muy += g * hn[i];
      mo.x2 += g * hxx[i];
      mo.xy += g * hxy[i];
      mo.y2 += g * hyy[i];
    }
    mo.w = (ulong)ssim_kept_weight(x, width) * ssim_kept_weight(y, height);
    const softfp term = softfp_term(mo, softfp_term_constants_from_bits(mm_k1_bits, mm_k2_bits));
    if (!softfp_is_valid(term)) *invalid = 1;
    if (raster) term_bits[y * width + x] = softfp_to_bits(term);
    else q = softfp_to_fixed64(term);
  }
  if (raster) return;  // the same for the whole launch: no work-item skips a barrier
  const int lid = (int)(get_local_id(1) * get_local_size(0) + get_local_id(0));
  const int size = (int)(get_local_size(0) * get_local_size(1));
  sum_lo[lid] = q.lo;
  sum_hi[lid] = q.hi;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int half_size = size / 2; half_size > 0; half_size /= 2) {
    if (lid < half_size) {
      softfp_i128 a, b;
      a.lo = sum_lo[lid];
      a.hi = sum_hi[lid];
      b.lo = sum_lo[lid + half_size];
      b.hi = sum_hi[lid + half_size];
      const softfp_i128 s = softfp_i128_add(a, b);
      sum_lo[lid] = s.lo;
      sum_hi[lid] = s.hi;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    const size_t group = get_group_id(1) * get_num_groups(0) + get_group_id(0);
    partial[2 * group] = sum_lo[0];
    partial[2 * group + 1] = sum_hi[0];
  }
}
