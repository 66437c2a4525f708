// Cambi's per-sample stages on an OpenCL device (metrics/cambi/definition.h):
// one work-item an output; the contrast values one a run of a row's samples.
// Integers but the contrast term's binary32 conversion and product (correctly
// rounded by the standard; no double). Embedded at build time.
#pragma OPENCL FP_CONTRACT OFF

#include "metrics/cambi/definition.h"
#include "metrics/cambi/pool_device.h"

// The most work-items a work-group has (the engine caps it).
#define CAMBI_GROUP_ITEMS 256

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

// The band codes of a w x h scale (definition.h's cambi_band_code).
__kernel void cambi_band_codes(__global const ushort* image, int w, int h,
                               __global const uchar* mask, int mask_width, int mask_step, int base,
                               int band, __global ushort* codes) {
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  if (x >= w || y >= h) return;
  CambiContrast k;
  k.base = base;
  k.band = band;
  codes[(size_t)y * (size_t)w + (size_t)x] =
      cambi_band_code(image, w, mask, mask_width, mask_step, k, x, y);
}

// One run's contrast values (definition.h) from the kernel's arguments.
static void cambi_contrast_values(__global const ushort* codes, int w, int h, int x0, int y,
                                  int run, int num_diffs, int vlt_luma, int pad,
                                  __global const int* tvi, __global const int* weight,
                                  __global const float* reciprocal, __global float* row) {
  CambiContrast k;
  k.num_diffs = num_diffs;
  k.base = 0;
  k.band = 0;
  k.vlt_luma = vlt_luma;
  k.pad = pad;
  CambiTables t;
  t.tvi = tvi;
  t.weight = weight;
  t.reciprocal = reciprocal;
  cambi_contrast_run(codes, w, h, x0, y, run, k, t, row);
}

// The contrast values of a w x h scale into values[at .. at + w h), a
// work-item a run of `run` samples of a row: item (i, y) the samples from
// column i * run on; and each work-group's pool record (pool_device.h) into
// records[record_at + group], the groups row by row. Every item reaches the
// merge, those past the picture with nothing; integers, so the merge's order
// does not matter.
__kernel void cambi_contrast(__global const ushort* codes, int w, int h, int run, int num_diffs,
                             int vlt_luma, int pad, __global const int* tvi,
                             __global const int* weight, __global const float* reciprocal,
                             __global float* values, ulong at, __global ulong* records,
                             ulong record_at) {
  __local CambiPoolPartial part[CAMBI_GROUP_ITEMS];
  const int i = (int)get_global_id(0), y = (int)get_global_id(1);
  const uint me = (uint)(get_local_id(1) * get_local_size(0) + get_local_id(0));
  const uint items = (uint)(get_local_size(0) * get_local_size(1));
  CambiPoolPartial mine = cambi_pool_empty();
  if (i * run < w && y < h) {
    __global float* row = values + at + (size_t)y * (size_t)w;
    cambi_contrast_values(codes, w, h, i * run, y, run, num_diffs, vlt_luma, pad, tvi, weight,
                          reciprocal, row);
    mine = cambi_pool_add_run(mine, row, i * run, run, w);
  }
  part[me] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = 1; stride < items; stride <<= 1) {
    if ((me & (2 * stride - 1)) == 0 && me + stride < items)
      part[me] = cambi_pool_merge(part[me], part[me + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (me == 0)
    cambi_pool_store(records + (record_at + get_group_id(1) * get_num_groups(0) + get_group_id(0)) *
                                   EXACTVQ_CAMBI_POOL_WORDS,
                     part[0]);
}
