// Cambi's per-sample stages on an OpenCL device (metrics/cambi/definition.h):
// one work-item an output; the contrast values a work-group a tile of
// outputs, which first stages the band codes of its tile and the window's
// reach around it in local memory. Integers but the contrast term's binary32
// conversion and product (correctly rounded by the standard; no double).
// Embedded at build time.
#pragma OPENCL FP_CONTRACT OFF

#include "metrics/cambi/definition.h"

// The w x h 10-bit image from a picture's luma (8-bit samples unless `wide`),
// at the picks rows / cols where `resampled`, anti-dithered where asked.
__kernel void cambi_ten_bit(__global const uchar* plane, int wide, int plane_width,
                            __global const int* rows, __global const int* cols, int resampled,
                            int up, int down, int anti_dither, int w, int h, __global ushort* out) {
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  if (x >= w || y >= h) return;
  CambiConvert c;
  c.up = up;
  c.down = down;
  c.round = down ? 1 << (down - 1) : 0;
  out[(size_t)y * (size_t)w + (size_t)x] =
      cambi_ten_bit_at(plane, wide, plane_width, resampled ? rows : 0, resampled ? cols : 0, c,
                       anti_dither, w, h, x, y);
}

__kernel void cambi_mask(__global const ushort* image, int w, int h, int threshold,
                         __global uchar* mask) {
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  if (x >= w || y >= h) return;
  mask[(size_t)y * (size_t)w + (size_t)x] = (uchar)cambi_mask_at(image, w, h, threshold, x, y);
}

// The w x h mode-filtered image of a scale from `src` (decimated once when `step`).
__kernel void cambi_mode_filter(__global const ushort* src, int src_width, int step, int w, int h,
                                __global ushort* out) {
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  if (x >= w || y >= h) return;
  out[(size_t)y * (size_t)w + (size_t)x] = cambi_mode_filter_at(src, src_width, step, w, h, x, y);
}

// The contrast values of a w x h scale into values[at .. at + w h). A work-group of
// get_local_size() items covers as many outputs; `tile` holds its band codes
// with `pad` more on each side ((lx + 2 pad) x (ly + 2 pad) entries).
__kernel void cambi_contrast(__global const ushort* image, int w, int h, __global const uchar* mask,
                             int mask_width, int mask_step, int num_diffs, int base, int band,
                             int vlt_luma, int pad, __global const int* tvi,
                             __global const int* weight, __global const float* reciprocal,
                             __local ushort* tile, __global float* values, ulong at) {
  CambiContrast k;
  k.num_diffs = num_diffs;
  k.base = base;
  k.band = band;
  k.vlt_luma = vlt_luma;
  k.pad = pad;
  const int lx = (int)get_local_size(0), ly = (int)get_local_size(1);
  const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
  const int x0 = (int)get_group_id(0) * lx, y0 = (int)get_group_id(1) * ly;
  const int stride = lx + 2 * pad, entries = stride * (ly + 2 * pad);
  for (int i = ty * lx + tx; i < entries; i += lx * ly)
    tile[i] = cambi_tile_code(image, w, h, mask, mask_width, mask_step, k, x0 - pad + i % stride,
                              y0 - pad + i / stride);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int x = x0 + tx, y = y0 + ty;
  if (x >= w || y >= h) return;
  CambiTables t;
  t.tvi = tvi;
  t.weight = weight;
  t.reciprocal = reciprocal;
  values[at + (size_t)y * (size_t)w + (size_t)x] =
      cambi_contrast_at(tile + ty * stride + tx, stride, k, t);
}
