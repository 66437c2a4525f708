// ciede's per-pixel step on an OpenCL device without fp64 (docs/spec/ciede.md,
// "Device engines"): a work item a pixel, its samples read where the reference
// reads them (chroma_site.h), its two colours and delta E on softfp
// (softfp_delta_e.h: the definition's binary64 and binary32 steps and the C
// library's functions, bit for bit), the float widened to binary64 and written
// as its bits in raster order for the raster-order sum. Embedded at build time.
#include "metrics/ciede/chroma_site.h"
#include "metrics/ciede/softfp_delta_e.h"

static inline uint ciede_sample(__global const uchar* plane, size_t i, int wide) {
  return wide ? (uint)((__global const ushort*)plane)[i] : (uint)plane[i];
}

__kernel void ciede_delta_e(__global const uchar* y_ref, __global const uchar* y_dist,
                            __global const uchar* u_ref, __global const uchar* u_dist,
                            __global const uchar* v_ref, __global const uchar* v_dist, int width,
                            int height, int chroma_width, int kind, long padded_half, int bitdepth,
                            __global const ulong* tables, __global ulong* terms) {
  const size_t i = get_global_id(0);
  if (i >= (size_t)width * (size_t)height) return;
  const int y = (int)(i / (size_t)width), x = (int)(i % (size_t)width);
  CiedeChromaReading reading;
  reading.kind = kind;
  reading.width = width;
  reading.padded_half = padded_half;
  const CiedeChromaSite c = ciede_chroma_site(reading, x, y);
  const size_t ci = (size_t)c.row * (size_t)chroma_width + (size_t)c.col;
  const int wide = bitdepth > 8;
  const uint ru = c.zero ? 0u : ciede_sample(u_ref, ci, wide);
  const uint rv = c.zero ? 0u : ciede_sample(v_ref, ci, wide);
  const uint du = c.zero ? 0u : ciede_sample(u_dist, ci, wide);
  const uint dv = c.zero ? 0u : ciede_sample(v_dist, ci, wide);
  const CiedeSoftLab a = ciede_soft_lab_color(ciede_sample(y_ref, i, wide), ru, rv, bitdepth, tables);
  const CiedeSoftLab b = ciede_soft_lab_color(ciede_sample(y_dist, i, wide), du, dv, bitdepth, tables);
  terms[i] = softfp_to_bits(softfp_from_f32_bits(ciede_soft_delta_e(a, b, tables)));
}
