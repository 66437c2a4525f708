// Grid-stride SSE: each thread sums squared differences of its samples in 64
// bits, the block adds its threads by warp shuffles and shared memory, and one
// integer atomic per block adds the block into the frame's sum.
#include "metrics/psnr/cuda/sse_kernel.h"

#include "backends/cuda/cuda_check.h"

namespace exactvq::psnr::cuda {

using exactvq::cuda::check;

namespace {

constexpr int kThreads = 256;

template <typename Sample>
__global__ void __launch_bounds__(kThreads)
    sse_kernel(const Sample* __restrict__ ref, const Sample* __restrict__ dist, size_t frame_stride,
               size_t count, unsigned long long* __restrict__ sse) {
  const size_t frame = blockIdx.y;
  ref += frame * frame_stride;
  dist += frame * frame_stride;
  unsigned long long acc = 0;
  for (size_t i = size_t(blockIdx.x) * kThreads + threadIdx.x; i < count;
       i += size_t(gridDim.x) * kThreads) {
    const int d = int(ref[i]) - int(dist[i]);
    acc += unsigned(d * d);  // < 2^32 at 16 bits
  }
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(0xffffffffu, acc, offset);
  __shared__ unsigned long long warps[kThreads / 32];
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x != 0) return;
  for (int w = 1; w < kThreads / 32; ++w) acc += warps[w];
  atomicAdd(&sse[frame], acc);
}

}  // namespace

void launch_sse(const DevicePlanes& p, uint64_t* sse, cudaStream_t stream) {
  const size_t count = size_t(p.width) * size_t(p.height);
  const size_t blocks = std::min<size_t>((count + kThreads * 8 - 1) / (kThreads * 8), 1024);
  const dim3 grid(unsigned(blocks), unsigned(p.frames));
  auto* out = reinterpret_cast<unsigned long long*>(sse);
  if (p.bitdepth == 8)
    sse_kernel<uint8_t><<<grid, kThreads, 0, stream>>>(static_cast<const uint8_t*>(p.ref),
                                                       static_cast<const uint8_t*>(p.dist),
                                                       p.frame_stride, count, out);
  else
    sse_kernel<uint16_t><<<grid, kThreads, 0, stream>>>(static_cast<const uint16_t*>(p.ref),
                                                        static_cast<const uint16_t*>(p.dist),
                                                        p.frame_stride / 2, count, out);
  check(cudaGetLastError(), "SSE kernel launch");
}

}  // namespace exactvq::psnr::cuda
