// psnr_hvs's CUDA kernels: indexing and launch shape only; the arithmetic is
// block_terms.h's, the same text as the OpenCL kernels' and the host tests'
// (the plane sum's additions restated for a warp's loads, in the same order).
#include "metrics/psnr_hvs/cuda/psnr_hvs_kernels.h"

#include "backends/cuda/cuda_check.h"
#include "metrics/psnr_hvs/block_terms.h"

namespace exactvq::psnr_hvs::cuda {

using exactvq::cuda::check;

namespace {

constexpr int kThreads = 128;
constexpr int kMaxPlanes = 3;

// One thread a block: its samples loaded, its terms written in coefficient order.
template <typename Sample>
__global__ void __launch_bounds__(kThreads)
    block_terms_kernel(const Sample* __restrict__ ref, const Sample* __restrict__ dist,
                       size_t frame_stride, int width, int across, int blocks,
                       const float* __restrict__ weights, float v64, float v16,
                       float* __restrict__ terms, size_t frame_terms) {
  const int b = int(blockIdx.x) * kThreads + int(threadIdx.x);
  if (b >= blocks) return;
  const size_t frame = blockIdx.y;
  const int x = PSNR_HVS_STEP * (b % across), y = PSNR_HVS_STEP * (b / across);
  const Sample* r = ref + frame * frame_stride + size_t(y) * size_t(width) + size_t(x);
  const Sample* d = dist + frame * frame_stride + size_t(y) * size_t(width) + size_t(x);
  int32_t rb[PSNR_HVS_COEFFICIENTS], db[PSNR_HVS_COEFFICIENTS];
#pragma unroll
  for (int i = 0; i < PSNR_HVS_BLOCK; ++i)
#pragma unroll
    for (int j = 0; j < PSNR_HVS_BLOCK; ++j) {
      rb[i * PSNR_HVS_BLOCK + j] = int32_t(r[size_t(i) * size_t(width) + size_t(j)]);
      db[i * PSNR_HVS_BLOCK + j] = int32_t(d[size_t(i) * size_t(width) + size_t(j)]);
    }
  psnr_hvs_block_terms(rb, db, weights, weights + PSNR_HVS_COEFFICIENTS, v64, v16, 0,
                       terms + frame * frame_terms + size_t(b) * PSNR_HVS_COEFFICIENTS);
}

struct PlaneTermsSet {
  PlaneTerms plane[kMaxPlanes];
};

// Terms a lane loads per step of the sum: 8 warps' widths (256 terms) in flight.
constexpr int kSumDepth = 8;

// The warp's next 32 * kSumDepth terms from `at`, lane l holding terms at + 32 k + l.
__device__ __forceinline__ void load_terms(const float* __restrict__ t, int64_t at, int lane,
                                           float (&v)[kSumDepth]) {
#pragma unroll
  for (int k = 0; k < kSumDepth; ++k) v[k] = __ldg(t + at + 32 * k + lane);
}

// Adds v's terms in index order to `sum`: term 32 k + j is lane j's v[k],
// broadcast to every lane.
__device__ __forceinline__ float add_terms(float sum, const float (&v)[kSumDepth]) {
#pragma unroll
  for (int k = 0; k < kSumDepth; ++k)
#pragma unroll
    for (int j = 0; j < 32; ++j) sum = __fadd_rn(sum, __shfl_sync(0xffffffffu, v[k], j));
  return sum;
}

// One warp a (frame, plane): psnr_hvs_plane_sum's additions, the same ones in
// the same order (term 0, 1, 2, ... from +0), with the loads spread over the
// warp: its lanes load 32 consecutive terms at a time, coalesced and a step
// ahead of the additions, and every lane adds each term, broadcast by a
// shuffle, to its own copy of the sum (so every lane holds the same bits);
// lane 0 writes it.
__global__ void plane_sums_kernel(PlaneTermsSet set, int plane_count, int frames, float* sums,
                                  size_t stride) {
  const int warp = int((blockIdx.x * blockDim.x + threadIdx.x) / 32);
  const int lane = int(threadIdx.x % 32);
  if (warp >= plane_count * frames) return;  // the whole warp
  const int frame = warp / plane_count, p = warp % plane_count;
  const int64_t count = set.plane[p].count;
  const float* t = set.plane[p].terms + size_t(frame) * size_t(count);
  constexpr int64_t kStep = 32 * kSumDepth;
  float sum = 0.0f;
  int64_t i = 0;
  if (count >= kStep) {
    float current[kSumDepth], next[kSumDepth];
    load_terms(t, 0, lane, current);
    for (; i + 2 * kStep <= count; i += kStep) {
      load_terms(t, i + kStep, lane, next);
      sum = add_terms(sum, current);
#pragma unroll
      for (int k = 0; k < kSumDepth; ++k) current[k] = next[k];
    }
    sum = add_terms(sum, current);
    i += kStep;
  }
  for (; i < count; i += 32) {  // the last terms, 32 at a time
    const float v = i + lane < count ? t[i + lane] : 0.0f;
    const int n = count - i < 32 ? int(count - i) : 32;
    for (int j = 0; j < n; ++j) sum = __fadd_rn(sum, __shfl_sync(0xffffffffu, v, j));
  }
  if (lane == 0) sums[size_t(frame) * stride + size_t(p)] = sum;
}

}  // namespace

void launch_block_terms(const DevicePlanes& p, const BlockWeights& w, float* terms,
                        size_t frame_terms, cudaStream_t stream) {
  const int across = (p.width - PSNR_HVS_BLOCK) / PSNR_HVS_STEP + 1;
  const int down = (p.height - PSNR_HVS_BLOCK) / PSNR_HVS_STEP + 1;
  const int blocks = across * down;
  const dim3 grid(unsigned((blocks + kThreads - 1) / kThreads), unsigned(p.frames));
  if (p.bitdepth == 8)
    block_terms_kernel<uint8_t><<<grid, kThreads, 0, stream>>>(
        static_cast<const uint8_t*>(p.ref), static_cast<const uint8_t*>(p.dist), p.frame_stride,
        p.width, across, blocks, w.weights, w.v64, w.v16, terms, frame_terms);
  else
    block_terms_kernel<uint16_t><<<grid, kThreads, 0, stream>>>(
        static_cast<const uint16_t*>(p.ref), static_cast<const uint16_t*>(p.dist),
        p.frame_stride / 2, p.width, across, blocks, w.weights, w.v64, w.v16, terms, frame_terms);
  check(cudaGetLastError(), "psnr_hvs block terms kernel launch");
}

void launch_plane_sums(const PlaneTerms* planes, int plane_count, int frames, float* sums,
                       size_t stride, cudaStream_t stream) {
  PlaneTermsSet set;
  for (int p = 0; p < plane_count && p < kMaxPlanes; ++p) set.plane[p] = planes[p];
  const int threads = 32 * plane_count * frames;  // a warp each
  plane_sums_kernel<<<unsigned((threads + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
      set, plane_count, frames, sums, stride);
  check(cudaGetLastError(), "psnr_hvs plane sums kernel launch");
}

}  // namespace exactvq::psnr_hvs::cuda
