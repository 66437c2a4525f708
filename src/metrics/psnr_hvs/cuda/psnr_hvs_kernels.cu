// psnr_hvs's CUDA kernels: indexing and launch shape only; the arithmetic is
// block_terms.h's, the same text as the OpenCL kernels' and the host tests'.
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

// One thread a (frame, plane): the definition's sequential sum.
__global__ void plane_sums_kernel(PlaneTermsSet set, int plane_count, int frames, float* sums,
                                  size_t stride) {
  const int t = int(blockIdx.x) * int(blockDim.x) + int(threadIdx.x);
  if (t >= plane_count * frames) return;
  const int frame = t / plane_count, p = t % plane_count;
  const PlaneTerms& pt = set.plane[p];
  sums[size_t(frame) * stride + size_t(p)] =
      psnr_hvs_plane_sum(pt.terms + size_t(frame) * size_t(pt.count), pt.count);
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
  const int threads = plane_count * frames;
  plane_sums_kernel<<<unsigned((threads + 31) / 32), 32, 0, stream>>>(set, plane_count, frames,
                                                                      sums, stride);
  check(cudaGetLastError(), "psnr_hvs plane sums kernel launch");
}

}  // namespace exactvq::psnr_hvs::cuda
