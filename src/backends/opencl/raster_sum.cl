/* The raster-order binary64 sum on an OpenCL device (docs/architecture.md, "The raster-order sum on devices"):
 * terms arrive as their bits (ulong), and the sum is computed in integers: records through
 * core/binade_step.h, the fallback additions through softfp_add_bits. Only the candidate
 * exponents come from binary32 approximations, which a wrong guess costs time, never bits. Four
 * kernels a call, over every (frame, array) of the layout: approximate chunk sums,
 * candidate exponents, chunk and block records, then one work-item an array replays.
 * Work-groups reduce through local memory (no sub-groups), any power of two from 32 to
 * RASTER_GROUP items. */
#include "core/binade_step.h"
#include "softfp/softfp_add_bits.h"

#define RASTER_MAX_ARRAYS 8
#define RASTER_GROUP 256 /* the largest work-group of every kernel here */
#define RASTER_BLOCK (EXACTVQ_RASTER_CHUNK * EXACTVQ_RASTER_BLOCK_CHUNKS)

/* Where everything is (all longs, so that the host's struct has the same layout):
 * the arrays, per frame the first chunk and block of each array ([arrays]: a frame's
 * count), and the workspace's parts as byte offsets. */
typedef struct raster_geometry {
  long frames, arrays;
  long offset[RASTER_MAX_ARRAYS], stride[RASTER_MAX_ARRAYS], count[RASTER_MAX_ARRAYS];
  long chunk_first[RASTER_MAX_ARRAYS + 1], block_first[RASTER_MAX_ARRAYS + 1];
  long approx_at, candidates_at, chunk_records_at, block_records_at;
} raster_geometry;

/* A block (of RASTER_BLOCK terms) of the whole call: its frame, array and place in the
 * array. */
typedef struct raster_place {
  long frame, array, within; /* within: the block's index in its array */
} raster_place;

static raster_place place_of_block(const raster_geometry* g, long block) {
  const long per_frame = g->block_first[g->arrays];
  raster_place p;
  p.frame = block / per_frame;
  const long rest = block % per_frame;
  long a = 0;
  while (a + 1 < g->arrays && g->block_first[a + 1] <= rest) ++a;
  p.array = a;
  p.within = rest - g->block_first[a];
  return p;
}

static long array_start(const raster_geometry* g, long frame, long array) {
  return g->offset[array] + frame * g->stride[array];
}

static long first_chunk(const raster_geometry* g, long frame, long array) {
  return frame * g->chunk_first[g->arrays] + g->chunk_first[array];
}

static long least(long a, long b) { return a < b ? a : b; }

/* A binary64's value roughly, in binary32: the fraction truncated, 0 below binary32's
 * normal range, infinite above it (and for infinities; NaN for NaN). */
static float approximate(ulong bits) {
  const uint sign = (uint)(bits >> 63) << 31;
  const int field = (int)((bits >> 52) & 0x7ff), single = field - 1023 + 127;
  if (field == 0x7ff) return as_float(sign | 0x7f800000u | ((bits << 12) ? 0x400000u : 0u));
  if (single <= 0) return as_float(sign);
  if (single >= 255) return as_float(sign | 0x7f800000u);
  return as_float(sign | ((uint)single << 23) | (uint)((bits >> 29) & 0x7fffffu));
}

/* The candidate exponent (core/binade_step.h's exactvq_exponent_of) of a sum known roughly:
 * the low grid's for 0 and binary32's subnormals, 1024 (no state) when it is out of
 * binary32's range. */
static int candidate_of(float sum) {
  const uint bits = as_uint(sum), field = (bits >> 23) & 0xffu;
  if (field == 0xffu) return 1024;
  if (field == 0u) return EXACTVQ_LOW_EXPONENT;
  return (int)field - 127;
}

/* (1) A work-group a block: each item adds its consecutive terms, then the items of a
 * chunk add their parts (a tree); any order will do, the sums only pick candidates. */
__kernel void raster_approximate_sums(raster_geometry g, __global const ulong* terms, __global uchar* workspace) {
  __local float part[RASTER_GROUP];
  __global float* approx = (__global float*)(workspace + g.approx_at);
  const raster_place p = place_of_block(&g, (long)get_group_id(0));
  const int item = (int)get_local_id(0), items = (int)get_local_size(0);
  const int per_item = RASTER_BLOCK / items, chunk_items = items / EXACTVQ_RASTER_BLOCK_CHUNKS;
  const long count = g.count[p.array], first = p.within * RASTER_BLOCK + (long)item * per_item;
  const long n = least(per_item, count - first);
  __global const ulong* t = terms + array_start(&g, p.frame, p.array) + first;
  float s = 0.0f;
  for (long j = 0; j < n; ++j) s += approximate(t[j]);
  part[item] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int offset = 1; offset < chunk_items; offset *= 2) {
    if (item % (2 * offset) == 0) part[item] += part[item + offset];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (item % chunk_items == 0 && first < count) {
    const long chunk = p.within * EXACTVQ_RASTER_BLOCK_CHUNKS + item / chunk_items;
    approx[first_chunk(&g, p.frame, p.array) + chunk] = part[item];
  }
}

/* (2) A work-group an array: candidate exponents from the exclusive prefix of the chunk
 * sums (each item a contiguous part, a scan of the parts' sums: one fixed order). */
__kernel void raster_chunk_candidates(raster_geometry g, __global uchar* workspace) {
  __local float scan[RASTER_GROUP];
  __global const float* approx = (__global const float*)(workspace + g.approx_at);
  __global int* candidates = (__global int*)(workspace + g.candidates_at);
  const long frame = (long)get_group_id(0) / g.arrays, array = (long)get_group_id(0) % g.arrays;
  const int item = (int)get_local_id(0), items = (int)get_local_size(0);
  const long n = (g.count[array] + EXACTVQ_RASTER_CHUNK - 1) / EXACTVQ_RASTER_CHUNK;
  const long first = first_chunk(&g, frame, array), per = (n + items - 1) / items;
  const long begin = least(n, (long)item * per), end = least(n, begin + per);
  float part = 0.0f;
  for (long c = begin; c < end; ++c) part += approx[first + c];
  scan[item] = part;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int offset = 1; offset < items; offset *= 2) {
    const float add = item >= offset ? scan[item - offset] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    scan[item] += add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float prefix = item > 0 ? scan[item - 1] : 0.0f;
  for (long c = begin; c < end; ++c) {
    candidates[first + c] = candidate_of(prefix);
    prefix += approx[first + c];
  }
}

/* (3) A work-group a block: each item folds its consecutive terms into records at its
 * chunk's candidate, then a tree in local memory composes neighbours in order: after
 * log2(items a chunk) levels the chunks' records, after all the block's. Items past the
 * array's end take no part. */
__kernel void raster_run_records(raster_geometry g, __global const ulong* terms, __global uchar* workspace) {
  __local exactvq_run_record records[RASTER_GROUP];
  __global const int* candidates = (__global const int*)(workspace + g.candidates_at);
  __global exactvq_run_record* chunk_records = (__global exactvq_run_record*)(workspace + g.chunk_records_at);
  __global exactvq_run_record* block_records = (__global exactvq_run_record*)(workspace + g.block_records_at);
  const raster_place p = place_of_block(&g, (long)get_group_id(0));
  const int item = (int)get_local_id(0), items = (int)get_local_size(0);
  const int per_item = RASTER_BLOCK / items, chunk_items = items / EXACTVQ_RASTER_BLOCK_CHUNKS;
  const long count = g.count[p.array], block_first = p.within * RASTER_BLOCK;
  const long first = block_first + (long)item * per_item;
  const long chunk = p.within * EXACTVQ_RASTER_BLOCK_CHUNKS + item / chunk_items;
  const long chunk0 = first_chunk(&g, p.frame, p.array);
  const int exists = first < count;
  exactvq_run_record r = exactvq_run_identity(exists ? candidates[chunk0 + chunk] : 0);
  if (exists) {
    __global const ulong* t = terms + array_start(&g, p.frame, p.array) + first;
    const long n = least(per_item, count - first);
    for (long j = 0; j < n; ++j) r = exactvq_run_push_term(r, t[j]);
  }
  records[item] = r;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int offset = 1; offset < items; offset *= 2) {
    if (offset == chunk_items && item % chunk_items == 0 && exists) chunk_records[chunk0 + chunk] = records[item];
    if (item % (2 * offset) == 0 && block_first + (long)(item + offset) * per_item < count)
      records[item] = exactvq_run_then(records[item], records[item + offset]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (item == 0) block_records[get_group_id(0)] = records[0];
}

/* One block of the replay on the sum's bits (core/raster_replay.h's replay_block): the
 * block's record if accepted, else each chunk's, else the chunk's terms one rounded
 * addition at a time. */
static ulong replay_block(ulong sum, exactvq_run_record block, __global const exactvq_run_record* chunks,
                          __global const ulong* terms, long count) {
  if (exactvq_run_replay(&sum, block)) return sum;
  for (long c = 0; c * EXACTVQ_RASTER_CHUNK < count; ++c) {
    if (exactvq_run_replay(&sum, chunks[c])) continue;
    const long first = c * EXACTVQ_RASTER_CHUNK, n = least(count - first, EXACTVQ_RASTER_CHUNK);
    for (long i = 0; i < n; ++i) sum = softfp_add_bits(sum, terms[first + i]);
  }
  return sum;
}

/* (4) A work-group an array: its items stage block records in local memory, item 0
 * replays them in order. sums[frame * arrays + array] gets the sum's bits. */
__kernel void raster_replay(raster_geometry g, __global const ulong* terms, __global uchar* workspace,
                            __global ulong* sums) {
  __local exactvq_run_record staged[RASTER_GROUP];
  __global const exactvq_run_record* chunk_records =
      (__global const exactvq_run_record*)(workspace + g.chunk_records_at);
  __global const exactvq_run_record* block_records =
      (__global const exactvq_run_record*)(workspace + g.block_records_at);
  const long frame = (long)get_group_id(0) / g.arrays, array = (long)get_group_id(0) % g.arrays;
  const int item = (int)get_local_id(0), items = (int)get_local_size(0);
  const long count = g.count[array], blocks = (count + RASTER_BLOCK - 1) / RASTER_BLOCK;
  const long block0 = frame * g.block_first[g.arrays] + g.block_first[array];
  __global const exactvq_run_record* chunks = chunk_records + first_chunk(&g, frame, array);
  __global const ulong* t = terms + array_start(&g, frame, array);
  ulong sum = 0;
  for (long base = 0; base < blocks; base += items) {
    if (base + item < blocks) staged[item] = block_records[block0 + base + item];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (item == 0) {
      const long end = least(blocks, base + items);
      for (long b = base; b < end; ++b)
        sum = replay_block(sum, staged[b - base], chunks + b * EXACTVQ_RASTER_BLOCK_CHUNKS, t + b * RASTER_BLOCK,
                           least(RASTER_BLOCK, count - b * RASTER_BLOCK));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (item == 0) sums[get_group_id(0)] = sum;
}
