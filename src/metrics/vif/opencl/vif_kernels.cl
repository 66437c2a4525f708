// libvmaf's integer vif on an OpenCL device without fp64, from the shared
// definition (metrics/vif/definition.h) with the binary64 gain steps in softfp
// (softfp_statistic.h): every pixel's terms equal the CPU reference's. A
// work-group writes its integer sums to partial[]; the host adds them, in any
// order to the same value. Pictures of at least 16x16 only (every level two or
// more samples a side: the edges' closed form). Embedded at build time.
#include "metrics/vif/softfp_statistic.h"

#define VIF_TILE_W 32
#define VIF_MAX_TILE_H 8
#define VIF_MAX_RADIUS 8
#define VIF_COLS (VIF_TILE_W + 2 * VIF_MAX_RADIUS)

static inline uint vif_round32(uint v, int n) { return n > 0 ? (v + (1u << (n - 1))) >> n : v; }
static inline ulong vif_round64(ulong v, int n) { return n > 0 ? (v + ((ulong)1 << (n - 1))) >> n : v; }

static inline uint vif_sample(__global const uchar* p, size_t i, int bytes) {
  return bytes ? (uint)p[i] : (uint)((__global const ushort*)p)[i];
}

// One level's statistic. Work-groups of VIF_TILE_W x tile_h items (tile_h a
// power of two up to VIF_MAX_TILE_H): the vertical pass over the tile's columns
// and `radius` more either side (mirrored) into local memory, then the
// horizontal pass and each pixel's terms. partial[base + 4 * group + word]:
// num_log, den_log, num_non_log, den_non_log as two's complement words.
__kernel void vif_statistic(__global const uchar* ref, __global const uchar* dist, int width, int height,
                            int bytes, __global const uint* taps, int radius, int mean_shift, int square_shift,
                            ulong eps_bits, ulong limit_bits, __global const ushort* table,
                            __global ulong* partial, int base) {
  __local uint s_mu1[VIF_MAX_TILE_H * VIF_COLS], s_mu2[VIF_MAX_TILE_H * VIF_COLS];
  __local uint s_xx[VIF_MAX_TILE_H * VIF_COLS], s_yy[VIF_MAX_TILE_H * VIF_COLS];
  __local uint s_xy[VIF_MAX_TILE_H * VIF_COLS];
  __local ulong s_sum[VIF_TILE_W * VIF_MAX_TILE_H];
  const int tile_h = (int)get_local_size(1);
  const int cols = VIF_TILE_W + 2 * radius;
  const int x0 = (int)get_group_id(0) * VIF_TILE_W, y0 = (int)get_group_id(1) * tile_h;
  const int lid = (int)(get_local_id(1) * VIF_TILE_W + get_local_id(0));
  const int items = VIF_TILE_W * tile_h;
  for (int i = lid; i < cols * tile_h; i += items) {
    const int r = i / cols, c = i % cols;
    const int y = y0 + r;
    if (y >= height) continue;
    const size_t x = (size_t)vif_mirror(x0 - radius + c, width);
    uint mu1 = 0, mu2 = 0;
    ulong xx = 0, yy = 0, xy = 0;
    for (int k = 0; k <= 2 * radius; ++k) {
      const size_t row = (size_t)vif_mirror(y - radius + k, height) * (size_t)width;
      const uint s = vif_sample(ref, row + x, bytes), d = vif_sample(dist, row + x, bytes);
      const uint ts = taps[k] * s, td = taps[k] * d;
      mu1 += ts;
      mu2 += td;
      xx += (ulong)ts * s;
      yy += (ulong)td * d;
      xy += (ulong)ts * d;
    }
    const int at = r * VIF_COLS + c;
    s_mu1[at] = (ushort)vif_round32(mu1, mean_shift);
    s_mu2[at] = (ushort)vif_round32(mu2, mean_shift);
    s_xx[at] = (uint)vif_round64(xx, square_shift);
    s_yy[at] = (uint)vif_round64(yy, square_shift);
    s_xy[at] = (uint)vif_round64(xy, square_shift);
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  VifSums acc = {0, 0, 0, 0};
  const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
  if (x0 + tx < width && y0 + ty < height) {
    uint mu1 = 0, mu2 = 0;
    ulong xx = 0, yy = 0, xy = 0;
    for (int k = 0; k <= 2 * radius; ++k) {
      const uint t = taps[k];
      const int at = ty * VIF_COLS + tx + k;
      mu1 += t * s_mu1[at];
      mu2 += t * s_mu2[at];
      xx += t * (ulong)s_xx[at];
      yy += t * (ulong)s_yy[at];
      xy += t * (ulong)s_xy[at];
    }
    vif_softfp_add_pixel_terms(vif_sigmas(mu1, mu2, xx, yy, xy), softfp_from_bits(eps_bits),
                               softfp_from_bits(limit_bits), table, &acc);
  }
  const ulong words[4] = {(ulong)acc.num_log, (ulong)acc.den_log, (ulong)acc.num_non_log,
                          (ulong)acc.den_non_log};
  const size_t group = get_group_id(1) * get_num_groups(0) + get_group_id(0);
  for (int w = 0; w < 4; ++w) {
    s_sum[lid] = words[w];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int half_size = items / 2; half_size > 0; half_size /= 2) {
      if (lid < half_size) s_sum[lid] += s_sum[lid + half_size];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) partial[(size_t)base + 4 * group + (size_t)w] = s_sum[0];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// One output sample of the halving: the vertical blur (rounded by `shift`) at
// row 2i of each column the horizontal blur reads, then the horizontal blur
// (rounded by 16) at column 2j; the next level is floor(width / 2) x
// floor(height / 2) 16-bit samples.
__kernel void vif_halve(__global const uchar* ref, __global const uchar* dist, int width, int height, int bytes,
                        __global const uint* taps, int radius, int shift, __global ushort* ref_out,
                        __global ushort* dist_out) {
  const int w2 = width / 2, h2 = height / 2;
  const int j = (int)get_global_id(0), i = (int)get_global_id(1);
  if (j >= w2 || i >= h2) return;
  uint hr = 0, hd = 0;
  for (int kx = 0; kx <= 2 * radius; ++kx) {
    const size_t x = (size_t)vif_mirror(2 * j - radius + kx, width);
    uint vr = 0, vd = 0;
    for (int ky = 0; ky <= 2 * radius; ++ky) {
      const size_t at = (size_t)vif_mirror(2 * i - radius + ky, height) * (size_t)width + x;
      vr += taps[ky] * vif_sample(ref, at, bytes);
      vd += taps[ky] * vif_sample(dist, at, bytes);
    }
    hr += taps[kx] * (uint)(ushort)vif_round32(vr, shift);
    hd += taps[kx] * (uint)(ushort)vif_round32(vd, shift);
  }
  const size_t out = (size_t)i * (size_t)w2 + (size_t)j;
  ref_out[out] = (ushort)((hr + 32768u) >> 16);
  dist_out[out] = (ushort)((hd + 32768u) >> 16);
}
