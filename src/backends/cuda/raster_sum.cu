// The raster-order sum on a CUDA device (docs/architecture.md, "The raster-order sum on devices"):
// four launches on one stream for every array of a call: approximate chunk sums, candidate
// exponents, chunk and block records, then one thread an array replays them.
#include "backends/cuda/raster_sum.h"

#include <fmt/format.h>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/raster_records.cuh"
#include "core/error.h"
#include "core/raster_replay.h"

namespace exactvq::cuda {

namespace {

constexpr int64_t kChunk = EXACTVQ_RASTER_CHUNK;
constexpr int kBlockChunks = EXACTVQ_RASTER_BLOCK_CHUNKS;  // one warp a chunk
constexpr int64_t kBlock = kChunk * kBlockChunks;
constexpr int kTermsPerLane = int(kChunk / 32);
constexpr int kRecordThreads = 32 * kBlockChunks;
constexpr int kScanThreads = 1024;
constexpr int kReplayThreads = 128;
static_assert(kChunk % 32 == 0 && kBlockChunks <= 32 && kRecordThreads <= 1024);

__host__ __device__ constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
__host__ __device__ constexpr int64_t lesser(int64_t a, int64_t b) { return a < b ? a : b; }

// The plan of the call (core/raster_sum_layout.h), then the terms and the workspace's parts.
struct Geometry : RasterPlan {
  const double* terms;
  double* approx;       // a chunk's terms added in any order
  int32_t* candidates;  // a chunk's candidate exponent
  exactvq_run_record* chunk_records;
  exactvq_run_record* block_records;
};

Geometry geometry_of(const RasterSumLayout& layout) {
  Geometry g{};
  static_cast<RasterPlan&>(g) = plan_raster_sum(layout);
  g.terms = layout.terms;
  return g;
}

size_t align8(size_t n) { return (n + 7) / 8 * 8; }

size_t workspace_bytes(const Geometry& g) {
  const size_t chunks = size_t(g.chunks()), blocks = size_t(g.blocks());
  return align8(chunks * sizeof(double)) + align8(chunks * sizeof(int32_t)) +
         (chunks + blocks) * sizeof(exactvq_run_record);
}

void place_workspace(Geometry& g, void* workspace) {
  auto* at = static_cast<unsigned char*>(workspace);
  const size_t chunks = size_t(g.chunks());
  g.approx = reinterpret_cast<double*>(at);
  at += align8(chunks * sizeof(double));
  g.candidates = reinterpret_cast<int32_t*>(at);
  at += align8(chunks * sizeof(int32_t));
  g.chunk_records = reinterpret_cast<exactvq_run_record*>(at);
  g.block_records = g.chunk_records + chunks;
}

// A block (of kBlock terms) of the whole call: its frame, array and place in the array.
struct BlockPlace {
  int frame, array;
  int64_t local;
};

__device__ BlockPlace place_of_block(const Geometry& g, int64_t block) {
  const int64_t per_frame = g.block_first[g.arrays];
  BlockPlace p;
  p.frame = int(block / per_frame);
  const int64_t rest = block % per_frame;
  int a = 0;
  while (a + 1 < g.arrays && g.block_first[a + 1] <= rest) ++a;
  p.array = a;
  p.local = rest - g.block_first[a];
  return p;
}

__device__ const double* array_terms(const Geometry& g, int frame, int array) {
  return g.terms + g.offset[array] + frame * g.stride[array];
}

__device__ int64_t first_chunk(const Geometry& g, int frame, int array) {
  return frame * g.chunk_first[g.arrays] + g.chunk_first[array];
}

// (1) A warp a chunk: its terms added in binary64, in any order (candidates only).
__global__ void __launch_bounds__(kRecordThreads) approximate_sums(Geometry g) {
  const BlockPlace p = place_of_block(g, blockIdx.x);
  const int warp = int(threadIdx.x / 32), lane = int(threadIdx.x % 32);
  const int64_t chunk = p.local * kBlockChunks + warp, count = g.count[p.array];
  if (chunk * kChunk >= count) return;  // whole warps leave together
  const double* terms = array_terms(g, p.frame, p.array) + chunk * kChunk;
  const int64_t n = count - chunk * kChunk;
  double s = 0.0;
#pragma unroll
  for (int j = 0; j < kTermsPerLane; ++j) {
    const int64_t i = lane + 32 * j;
    if (i < n) s = __dadd_rn(s, terms[i]);
  }
  for (int offset = 16; offset > 0; offset /= 2)
    s = __dadd_rn(s, __shfl_xor_sync(0xffffffffu, s, offset));
  if (lane == 0) g.approx[first_chunk(g, p.frame, p.array) + chunk] = s;
}

// (2) A block an array: candidate exponents from the exclusive prefix of the chunk sums (each
// thread a contiguous part, a scan of the parts' sums; one fixed order).
__global__ void __launch_bounds__(kScanThreads) chunk_candidates(Geometry g) {
  const int frame = int(blockIdx.x) / int(g.arrays), array = int(blockIdx.x) % int(g.arrays);
  const int64_t n = ceil_div(g.count[array], kChunk), first = first_chunk(g, frame, array);
  const int64_t per = ceil_div(n, kScanThreads);
  const int64_t begin = lesser(n, int64_t(threadIdx.x) * per), end = lesser(n, begin + per);
  double part = 0.0;
  for (int64_t c = begin; c < end; ++c) part = __dadd_rn(part, g.approx[first + c]);
  __shared__ double scan[kScanThreads];
  scan[threadIdx.x] = part;
  __syncthreads();
  for (int offset = 1; offset < kScanThreads; offset *= 2) {
    const double add = threadIdx.x >= unsigned(offset) ? scan[threadIdx.x - offset] : 0.0;
    __syncthreads();
    scan[threadIdx.x] = __dadd_rn(scan[threadIdx.x], add);
    __syncthreads();
  }
  double prefix = threadIdx.x > 0 ? scan[threadIdx.x - 1] : 0.0;
  for (int64_t c = begin; c < end; ++c) {
    g.candidates[first + c] = exactvq_exponent_of(exactvq_f64_bits(prefix));
    prefix = __dadd_rn(prefix, g.approx[first + c]);
  }
}

// (3) A block of kBlock terms: each lane its consecutive terms' records (in order), each warp
// its chunk's record (lane order), then the block's record from its chunks'.
__global__ void __launch_bounds__(kRecordThreads) run_records(Geometry g) {
  const BlockPlace p = place_of_block(g, blockIdx.x);
  const int warp = int(threadIdx.x / 32), lane = int(threadIdx.x % 32);
  const int64_t count = g.count[p.array], chunk = p.local * kBlockChunks + warp;
  const int64_t chunk0 = first_chunk(g, p.frame, p.array);
  const bool exists = chunk * kChunk < count;
  const int32_t e = exists ? g.candidates[chunk0 + chunk] : 0;
  exactvq_run_record r = exactvq_run_identity(e);
  if (exists) {
    const double* terms = array_terms(g, p.frame, p.array);
    const int64_t first = chunk * kChunk + lane * kTermsPerLane;
#pragma unroll
    for (int j = 0; j < kTermsPerLane; ++j)
      if (first + j < count)
        r = exactvq_run_then(r, exactvq_run_of_term(exactvq_f64_bits(terms[first + j]), e));
  }
  r = compose_warp(r);
  __shared__ exactvq_run_record chunk_records[kBlockChunks];
  if (lane == 0) {
    chunk_records[warp] = r;
    if (exists) g.chunk_records[chunk0 + chunk] = r;
  }
  __syncthreads();
  if (warp != 0) return;
  const int chunks = int(lesser(kBlockChunks, ceil_div(count - p.local * kBlock, kChunk)));
  const exactvq_run_record b = compose_warp(
      lane < chunks ? chunk_records[lane] : exactvq_run_identity(chunk_records[0].exponent));
  if (lane == 0) g.block_records[blockIdx.x] = b;
}

// (4) A block an array: its threads stage block records in shared memory, thread 0 replays
// them in order (core/raster_replay.h), falling back to chunk records and to the terms.
__global__ void __launch_bounds__(kReplayThreads) replay_arrays(Geometry g, double* sums) {
  const int frame = int(blockIdx.x) / int(g.arrays), array = int(blockIdx.x) % int(g.arrays);
  const int64_t count = g.count[array], blocks = ceil_div(count, kBlock);
  const int64_t block0 = frame * g.block_first[g.arrays] + g.block_first[array];
  const exactvq_run_record* chunks = g.chunk_records + first_chunk(g, frame, array);
  const double* terms = array_terms(g, frame, array);
  __shared__ exactvq_run_record staged[kReplayThreads];
  double sum = 0.0;
  for (int64_t base = 0; base < blocks; base += kReplayThreads) {
    if (base + threadIdx.x < blocks)
      staged[threadIdx.x] = g.block_records[block0 + base + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
      const int64_t end = lesser(blocks, base + kReplayThreads);
      for (int64_t b = base; b < end; ++b)
        sum = replay_block(sum, staged[b - base], chunks + b * kBlockChunks, terms + b * kBlock,
                           lesser(kBlock, count - b * kBlock));
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = sum;
}

}  // namespace

size_t raster_sum_workspace_bytes(const RasterSumLayout& layout) {
  return workspace_bytes(geometry_of(layout));
}

void launch_raster_sums(const RasterSumLayout& layout, double* sums, void* workspace,
                        cudaStream_t stream) {
  Geometry g = geometry_of(layout);
  const int64_t arrays = g.frames * g.arrays, blocks = g.blocks();
  if (arrays == 0) return;
  if (arrays > 65535 * 1024 || blocks > int64_t{0x7fffffff})
    throw DeviceError(fmt::format("raster sum: {} arrays of {} blocks is too many for one launch",
                                  arrays, blocks));
  place_workspace(g, workspace);
  if (blocks > 0) {
    approximate_sums<<<unsigned(blocks), kRecordThreads, 0, stream>>>(g);
    check(cudaGetLastError(), "raster sum: approximate sums launch");
    chunk_candidates<<<unsigned(arrays), kScanThreads, 0, stream>>>(g);
    check(cudaGetLastError(), "raster sum: candidates launch");
    run_records<<<unsigned(blocks), kRecordThreads, 0, stream>>>(g);
    check(cudaGetLastError(), "raster sum: records launch");
  }
  replay_arrays<<<unsigned(arrays), kReplayThreads, 0, stream>>>(g, sums);
  check(cudaGetLastError(), "raster sum: replay launch");
}

}  // namespace exactvq::cuda
