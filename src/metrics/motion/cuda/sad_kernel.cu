// Motion's SAD on the GPU from the shared definition (metrics/motion/
// definition.h). A block of 32 x 8 output pixels runs the vertical blur of
// prev - cur over its columns and the horizontal blur's reach either side into
// shared memory (a column outside the picture holds the blur at its mirror, as
// libvmaf's mirrored reads do), then the horizontal blur and the absolute
// values; one integer atomic per block. Rows are at most 65536 samples, so no
// row's sum exceeds the 32 bits libvmaf sums a row in, and one 64-bit sum over
// all pixels equals libvmaf's sum of row sums.
#include "metrics/motion/cuda/sad_kernel.h"

#include "backends/cuda/cuda_check.h"
#include "metrics/motion/definition.h"

namespace exactvq::motion::cuda {

using exactvq::cuda::check;

namespace {

constexpr int kTileW = 32, kTileH = 8;
constexpr int kThreads = kTileW * kTileH;
constexpr int kRadius = EXACTVQ_MOTION_RADIUS;

template <typename Sample>
__global__ void __launch_bounds__(kThreads)
    sad_kernel(const Sample* __restrict__ prev, const Sample* __restrict__ cur, int width,
               int height, int bitdepth, unsigned long long* __restrict__ sad) {
  constexpr int kCols = kTileW + 2 * kRadius;
  __shared__ int32_t blurred[kTileH][kCols];
  const int x0 = int(blockIdx.x) * kTileW, y0 = int(blockIdx.y) * kTileH;
  const int64_t round_y = int64_t{1} << (bitdepth - 1);
  for (int i = int(threadIdx.x); i < kCols * kTileH; i += kThreads) {
    const int r = i / kCols, c = i % kCols;
    const int y = y0 + r;
    if (y >= height) continue;
    const size_t x = size_t(motion_mirror(x0 - kRadius + c, width));
    int64_t sum = 0;
#pragma unroll
    for (int k = 0; k < EXACTVQ_MOTION_TAPS; ++k) {
      const size_t row = size_t(motion_mirror(y - kRadius + k, height)) * size_t(width);
      sum += int64_t{motion_tap(k)} * (int32_t(prev[row + x]) - int32_t(cur[row + x]));
    }
    blurred[r][c] = int32_t((sum + round_y) >> bitdepth);
  }
  __syncthreads();
  unsigned long long acc = 0;
  const int tx = int(threadIdx.x) % kTileW, ty = int(threadIdx.x) / kTileW;
  if (x0 + tx < width && y0 + ty < height) {
    int64_t sum = 0;
#pragma unroll
    for (int k = 0; k < EXACTVQ_MOTION_TAPS; ++k)
      sum += int64_t{motion_tap(k)} * blurred[ty][tx + k];
    const int32_t v = int32_t((sum + (1 << 15)) >> 16);
    acc = uint32_t(v < 0 ? -v : v);
  }
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(0xffffffffu, acc, offset);
  __shared__ unsigned long long warps[kThreads / 32];
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x != 0) return;
  for (int w = 1; w < kThreads / 32; ++w) acc += warps[w];
  atomicAdd(sad, acc);
}

}  // namespace

void launch_motion_sad(const void* prev, const void* cur, int width, int height, int bitdepth,
                       uint64_t* sad, cudaStream_t stream) {
  const dim3 grid(unsigned((width + kTileW - 1) / kTileW),
                  unsigned((height + kTileH - 1) / kTileH));
  auto* out = reinterpret_cast<unsigned long long*>(sad);
  if (bitdepth == 8)
    sad_kernel<uint8_t><<<grid, kThreads, 0, stream>>>(static_cast<const uint8_t*>(prev),
                                                       static_cast<const uint8_t*>(cur), width,
                                                       height, bitdepth, out);
  else
    sad_kernel<uint16_t><<<grid, kThreads, 0, stream>>>(static_cast<const uint16_t*>(prev),
                                                        static_cast<const uint16_t*>(cur), width,
                                                        height, bitdepth, out);
  check(cudaGetLastError(), "motion SAD kernel launch");
}

}  // namespace exactvq::motion::cuda
