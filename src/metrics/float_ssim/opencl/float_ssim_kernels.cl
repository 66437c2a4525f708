// float_ssim's kernels on an OpenCL device without fp64 (docs/spec/float_ssim.md,
// "Engines"): the binary32 steps as OpenCL's binary32 +, -, * (correctly rounded
// by the standard; contraction off, mad not enabled in the build, subnormals
// required of the device by the engine), every binary64 step and the one
// binary32 division on softfp (softfp_terms.h): the tap sums of the decimation
// and the windows, the square root, l, c and the SSIM term, and s. One
// work-item an output. Embedded at build time.
#pragma OPENCL FP_CONTRACT OFF

#include "metrics/float_ssim/softfp_terms.h"

#define FS_WINDOW 11
#define FS_QUANTITIES 5  // ref, dist, ref * ref, dist * dist, ref * dist
#define FS_MAX_KERNEL 100  // a decimation kernel's taps: float_ssim's box of 10 x 10 at most

// A plane's samples: binary32 (kind 0), 8-bit (1) or 16-bit (2) integers, the
// latter scaled by `scale` (1/4, 1/16, 1/256: libvmaf's division by 4, 16, 256;
// exact either way, and + 0 changes nothing).
static inline float fs_sample(__global const uchar* p, size_t i, int kind, float scale) {
  if (kind == 1) return (float)p[i];
  if (kind == 2) return (float)((__global const ushort*)p)[i] * scale;
  return ((__global const float*)p)[i];
}

// iqa's KBND_SYMMETRIC: one reflection about the edge, the edge sample repeated.
static inline int fs_mirror(int i, int n) {
  if (i < 0) return -1 - i;
  if (i >= n) return 2 * n - i - 1;
  return i;
}

static inline float fs_round(softfp sum) { return as_float(softfp_to_f32_bits(sum)); }

// Integer samples to binary32, `count` of each plane.
__kernel void fs_convert(__global const uchar* ref, __global const uchar* dist, int count, int kind, float scale,
                         __global float* ref_out, __global float* dist_out) {
  const int i = (int)get_global_id(0);
  if (i >= count) return;
  ref_out[i] = fs_sample(ref, (size_t)i, kind, scale);
  dist_out[i] = fs_sample(dist, (size_t)i, kind, scale);
}

// iqa's _iqa_decimate: output (x, y) is the size x size kernel centred on
// (x * factor, y * factor), taps v (rows, outer) then u, edges mirrored; each
// product in binary32 added in binary64 from +0, the sum rounded to binary32.
__kernel void fs_decimate(__global const uchar* ref, __global const uchar* dist, int width, int height, int kind,
                          float scale, __global const float* taps, int size, int factor, int out_width,
                          int out_height, __global float* ref_out, __global float* dist_out) {
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  if (x >= out_width || y >= out_height) return;
  const int first = -(size / 2), last = size / 2 - (size % 2 == 0 ? 1 : 0);
  const int cx = x * factor, cy = y * factor;
  // Every product first (private memory), then their sum in order.
  uint r[FS_MAX_KERNEL], d[FS_MAX_KERNEL];
  int t = 0;
  for (int v = first; v <= last; ++v) {
    const size_t row = (size_t)fs_mirror(cy + v, height) * (size_t)width;
    for (int u = first; u <= last; ++u, ++t) {
      const size_t i = row + (size_t)fs_mirror(cx + u, width);
      const float tap = taps[t];
      const float pr = fs_sample(ref, i, kind, scale) * tap;
      const float pd = fs_sample(dist, i, kind, scale) * tap;
      r[t] = as_uint(pr);
      d[t] = as_uint(pd);
    }
  }
  const softfp sum_ref = float_ssim_soft_tap_sum(r, t), sum_dist = float_ssim_soft_tap_sum(d, t);
  const size_t o = (size_t)y * (size_t)out_width + (size_t)x;
  ref_out[o] = fs_round(sum_ref);
  dist_out[o] = fs_round(sum_dist);
}

// The horizontal window pass of the five quantities at (x, y), x < width - 10,
// every row: across[j] holds quantity j's plane of (width - 10) x height.
__kernel void fs_horizontal(__global const float* ref, __global const float* dist, int width, int height,
                            __global const float* window, __global float* across) {
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  const int ow = width - (FS_WINDOW - 1);
  if (x >= ow || y >= height) return;
  uint products[FS_QUANTITIES][FS_WINDOW];
  const size_t at = (size_t)y * (size_t)width + (size_t)x;
  for (int k = 0; k < FS_WINDOW; ++k) {
    const float r = ref[at + (size_t)k], d = dist[at + (size_t)k], tap = window[k];
    const float rr = r * r, dd = d * d, rd = r * d;
    const float p0 = r * tap, p1 = d * tap, p2 = rr * tap, p3 = dd * tap, p4 = rd * tap;
    products[0][k] = as_uint(p0);
    products[1][k] = as_uint(p1);
    products[2][k] = as_uint(p2);
    products[3][k] = as_uint(p3);
    products[4][k] = as_uint(p4);
  }
  const size_t plane = (size_t)ow * (size_t)height, out = (size_t)y * (size_t)ow + (size_t)x;
  for (int j = 0; j < FS_QUANTITIES; ++j)
    across[(size_t)j * plane + out] = fs_round(float_ssim_soft_tap_sum(products[j], FS_WINDOW));
}

// The vertical pass at position (x, y) and its terms (reference.cpp's
// reference_terms, step by step), each wanted term's binary64 bits written at
// its plane's offset (in terms; negative: not wanted) plus y * ow + x.
__kernel void fs_terms(__global const float* across, int ow, int height, __global const float* window, float c1,
                       float c2, float c3, __global ulong* terms, long lcs_at, long l_at, long c_at, long s_at) {
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  const int oh = height - (FS_WINDOW - 1);
  if (x >= ow || y >= oh) return;
  const size_t plane = (size_t)ow * (size_t)height;
  float window_of[FS_QUANTITIES];
  for (int j = 0; j < FS_QUANTITIES; ++j) {
    uint products[FS_WINDOW];
    for (int k = 0; k < FS_WINDOW; ++k) {
      const float p = across[(size_t)j * plane + (size_t)(y + k) * (size_t)ow + (size_t)x] * window[k];
      products[k] = as_uint(p);
    }
    window_of[j] = fs_round(float_ssim_soft_tap_sum(products, FS_WINDOW));
  }
  const float mu1 = window_of[0], mu2 = window_of[1];
  const float ref_sq = window_of[2], cmp_sq = window_of[3], both = window_of[4];
  const float mu1_sq = mu1 * mu1, mu2_sq = mu2 * mu2, mu12 = mu1 * mu2;
  const float v1 = ref_sq - mu1_sq, v2 = cmp_sq - mu2_sq;
  // libvmaf's MAX(0.0, v): 0.0 > v widened is 0.0f > v (a NaN or a -0 stays).
  const float var1 = 0.0f > v1 ? 0.0f : v1, var2 = 0.0f > v2 ? 0.0f : v2;
  const float cov = both - mu12;
  const float var_product = var1 * var2;
  const float sd = as_float(float_ssim_soft_sd(as_uint(var_product)));
  const float lum_sum = mu1_sq + mu2_sq, con_sum = var1 + var2;
  const float lum_den = lum_sum + c1, con_den = con_sum + c2;
  const float cov_kept = (cov < 0.0f && sd <= 0.0f) ? 0.0f : cov;
  const float s_num = cov_kept + c3, s_den = sd + c3;
  const uint s = softfp_f32_div(as_uint(s_num), as_uint(s_den));
  const float_ssim_soft_terms t = float_ssim_soft_terms_of(as_uint(mu1), as_uint(mu2), as_uint(c1), as_uint(lum_den),
                                                           as_uint(sd), as_uint(c2), as_uint(con_den), s);
  const size_t at = (size_t)y * (size_t)ow + (size_t)x;
  if (lcs_at >= 0) terms[(size_t)lcs_at + at] = t.lcs;
  if (l_at >= 0) terms[(size_t)l_at + at] = t.l;
  if (c_at >= 0) terms[(size_t)c_at + at] = t.c;
  if (s_at >= 0) terms[(size_t)s_at + at] = float_ssim_soft_widen(s);
}
