// libvmaf's integer motion on an OpenCL device: one frame's SAD between two
// reference pictures on the device, from the shared definition
// (metrics/motion/definition.h), integers throughout. Rows are at most 65536
// samples, so no row's sum exceeds the 32 bits libvmaf sums a row in, and the
// 64-bit sum of the work-groups' sums (added on the host) equals libvmaf's sum
// of row sums. Embedded at build time.
#include "metrics/motion/definition.h"

#define MOTION_TILE_W 32
#define MOTION_MAX_TILE_H 8
#define MOTION_COLS (MOTION_TILE_W + 2 * EXACTVQ_MOTION_RADIUS)

static inline int motion_sample(__global const uchar* p, size_t i, int bytes) {
  return bytes ? (int)p[i] : (int)((__global const ushort*)p)[i];
}

// Work-groups of MOTION_TILE_W x tile_h items (tile_h a power of two up to
// MOTION_MAX_TILE_H): the vertical blur of prev - cur over the tile's columns
// and the horizontal blur's reach either side (a column outside the picture
// holds the blur at its mirror, as libvmaf's mirrored reads do) into local
// memory, then the horizontal blur and the absolute values; partial[group].
__kernel void motion_sad(__global const uchar* prev, __global const uchar* cur, int width, int height, int bytes,
                         int bitdepth, __global ulong* partial) {
  __local int blurred[MOTION_MAX_TILE_H * MOTION_COLS];
  __local ulong sums[MOTION_TILE_W * MOTION_MAX_TILE_H];
  const int tile_h = (int)get_local_size(1);
  const int x0 = (int)get_group_id(0) * MOTION_TILE_W, y0 = (int)get_group_id(1) * tile_h;
  const int lid = (int)(get_local_id(1) * MOTION_TILE_W + get_local_id(0));
  const int items = MOTION_TILE_W * tile_h;
  const long round_y = (long)1 << (bitdepth - 1);
  for (int i = lid; i < MOTION_COLS * tile_h; i += items) {
    const int r = i / MOTION_COLS, c = i % MOTION_COLS;
    const int y = y0 + r;
    if (y >= height) continue;
    const size_t x = (size_t)motion_mirror(x0 - EXACTVQ_MOTION_RADIUS + c, width);
    long sum = 0;
    for (int k = 0; k < EXACTVQ_MOTION_TAPS; ++k) {
      const size_t row = (size_t)motion_mirror(y - EXACTVQ_MOTION_RADIUS + k, height) * (size_t)width;
      sum += (long)motion_tap(k) * (motion_sample(prev, row + x, bytes) - motion_sample(cur, row + x, bytes));
    }
    blurred[r * MOTION_COLS + c] = (int)((sum + round_y) >> bitdepth);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  ulong acc = 0;
  const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
  if (x0 + tx < width && y0 + ty < height) {
    long sum = 0;
    for (int k = 0; k < EXACTVQ_MOTION_TAPS; ++k) sum += (long)motion_tap(k) * blurred[ty * MOTION_COLS + tx + k];
    const int v = (int)((sum + (1 << 15)) >> 16);
    acc = (ulong)(uint)(v < 0 ? -v : v);
  }
  sums[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int half_size = items / 2; half_size > 0; half_size /= 2) {
    if (lid < half_size) sums[lid] += sums[lid + half_size];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = sums[0];
}
