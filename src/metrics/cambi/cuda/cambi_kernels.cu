// Cambi's kernels: indexing and launch shapes around definition.h's stages.
// The per-sample stages take one thread an output in blocks of 32 x 8; the
// contrast values one thread a run of kRun samples of a row (its histogram
// slides along the run), in blocks of 32 runs x 8 rows, each block's values
// then summarised in one pool record (pool_device.h).
#include "metrics/cambi/cuda/cambi_kernels.h"

#include "backends/cuda/cuda_check.h"

namespace exactvq::cambi::cuda {

using exactvq::cuda::check;

namespace {

constexpr int kBlockX = 32, kBlockY = 8;  // the per-sample kernels
constexpr int kRun = kContrastRun;        // the contrast kernel's samples a thread
static_assert(kContrastBlockRuns == kBlockX && kContrastBlockRows == kBlockY);

dim3 grid_of(int w, int h, int bx, int by) {
  return dim3(unsigned((w + bx - 1) / bx), unsigned((h + by - 1) / by));
}

__global__ void __launch_bounds__(kBlockX* kBlockY)
    ten_bit_kernel(LumaSource in, CambiConvert c, int anti_dither, int w, int h,
                   uint16_t* __restrict__ out) {
  const int x = int(blockIdx.x) * kBlockX + int(threadIdx.x);
  const int y = int(blockIdx.y) * kBlockY + int(threadIdx.y);
  if (x >= w || y >= h) return;
  out[size_t(y) * size_t(w) + size_t(x)] =
      cambi_ten_bit_at(static_cast<const unsigned char*>(in.plane), in.wide, in.width, in.rows,
                       in.cols, c, anti_dither, w, h, x, y);
}

// cambi_mask_at's count from a tile: each flat flag of the block's outputs'
// windows found once (0 outside the picture, where the definition counts
// nothing), then the 7 x 7 sums as row sums and column sums. Integers: the
// same count in any order.
__global__ void __launch_bounds__(kBlockX* kBlockY)
    mask_kernel(const uint16_t* __restrict__ image, int w, int h, int threshold,
                uint8_t* __restrict__ mask) {
  constexpr int kReach = EXACTVQ_CAMBI_MASK_SIDE / 2;
  constexpr int kTileW = kBlockX + 2 * kReach, kTileH = kBlockY + 2 * kReach;
  constexpr int kThreads = kBlockX * kBlockY;
  __shared__ uint8_t flat[kTileH][kTileW];
  __shared__ uint8_t row_sums[kTileH][kBlockX];
  const int x0 = int(blockIdx.x) * kBlockX, y0 = int(blockIdx.y) * kBlockY;
  const int me = int(threadIdx.y) * kBlockX + int(threadIdx.x);
  for (int i = me; i < kTileW * kTileH; i += kThreads) {
    const int x = x0 - kReach + i % kTileW, y = y0 - kReach + i / kTileW;
    flat[i / kTileW][i % kTileW] =
        x >= 0 && x < w && y >= 0 && y < h ? uint8_t(cambi_flat_at(image, w, h, x, y)) : 0;
  }
  __syncthreads();
  for (int i = me; i < kTileH * kBlockX; i += kThreads) {
    const int r = i / kBlockX, c = i % kBlockX;
    int sum = 0;
#pragma unroll
    for (int k = 0; k < EXACTVQ_CAMBI_MASK_SIDE; ++k) sum += flat[r][c + k];
    row_sums[r][c] = uint8_t(sum);
  }
  __syncthreads();
  const int x = x0 + int(threadIdx.x), y = y0 + int(threadIdx.y);
  if (x >= w || y >= h) return;
  int count = 0;
#pragma unroll
  for (int k = 0; k < EXACTVQ_CAMBI_MASK_SIDE; ++k) count += row_sums[threadIdx.y + k][threadIdx.x];
  mask[size_t(y) * size_t(w) + size_t(x)] = uint8_t(count > threshold);
}

__global__ void __launch_bounds__(kBlockX* kBlockY)
    mode_filter_kernel(const uint16_t* __restrict__ src, int src_width, int step, int w, int h,
                       uint16_t* __restrict__ out) {
  const int x = int(blockIdx.x) * kBlockX + int(threadIdx.x);
  const int y = int(blockIdx.y) * kBlockY + int(threadIdx.y);
  if (x >= w || y >= h) return;
  out[size_t(y) * size_t(w) + size_t(x)] = cambi_mode_filter_at(src, src_width, step, w, h, x, y);
}

__global__ void __launch_bounds__(kBlockX* kBlockY)
    band_codes_kernel(const uint16_t* __restrict__ image, int w, int h,
                      const uint8_t* __restrict__ mask, int mask_width, int mask_step,
                      CambiContrast k, uint16_t* __restrict__ codes) {
  const int x = int(blockIdx.x) * kBlockX + int(threadIdx.x);
  const int y = int(blockIdx.y) * kBlockY + int(threadIdx.y);
  if (x >= w || y >= h) return;
  codes[size_t(y) * size_t(w) + size_t(x)] =
      cambi_band_code(image, w, mask, mask_width, mask_step, k, x, y);
}

// Every thread of the block reaches the record's merge, those past the
// picture with nothing. Integers: the merge's order does not matter.
__global__ void __launch_bounds__(kBlockX* kBlockY)
    contrast_kernel(const uint16_t* __restrict__ codes, int w, int h, CambiContrast k,
                    CambiTables t, float* __restrict__ values, uint64_t* __restrict__ records) {
  __shared__ CambiPoolPartial part[kBlockX * kBlockY];
  const int i = int(blockIdx.x) * kBlockX + int(threadIdx.x);
  const int y = int(blockIdx.y) * kBlockY + int(threadIdx.y);
  const int me = int(threadIdx.y) * kBlockX + int(threadIdx.x);
  CambiPoolPartial mine = cambi_pool_empty();
  if (i * kRun < w && y < h) {
    float* row = values + size_t(y) * size_t(w);
    cambi_contrast_run(codes, w, h, i * kRun, y, kRun, k, t, row);
    mine = cambi_pool_add_run(mine, row, i * kRun, kRun, w);
  }
  part[me] = mine;
  __syncthreads();
  for (int stride = kBlockX * kBlockY / 2; stride > 0; stride >>= 1) {
    if (me < stride) part[me] = cambi_pool_merge(part[me], part[me + stride]);
    __syncthreads();
  }
  if (me == 0)
    cambi_pool_store(
        records + (size_t(blockIdx.y) * gridDim.x + blockIdx.x) * EXACTVQ_CAMBI_POOL_WORDS,
        part[0]);
}

}  // namespace

void launch_ten_bit(const LumaSource& in, CambiConvert c, bool anti_dither, int w, int h,
                    uint16_t* out, cudaStream_t stream) {
  ten_bit_kernel<<<grid_of(w, h, kBlockX, kBlockY), dim3(kBlockX, kBlockY), 0, stream>>>(
      in, c, anti_dither ? 1 : 0, w, h, out);
  check(cudaGetLastError(), "cambi 10-bit image kernel launch");
}

void launch_mask(const uint16_t* image, int w, int h, int threshold, uint8_t* mask,
                 cudaStream_t stream) {
  mask_kernel<<<grid_of(w, h, kBlockX, kBlockY), dim3(kBlockX, kBlockY), 0, stream>>>(
      image, w, h, threshold, mask);
  check(cudaGetLastError(), "cambi mask kernel launch");
}

void launch_mode_filter(const uint16_t* src, int src_width, int step, int w, int h, uint16_t* out,
                        cudaStream_t stream) {
  mode_filter_kernel<<<grid_of(w, h, kBlockX, kBlockY), dim3(kBlockX, kBlockY), 0, stream>>>(
      src, src_width, step, w, h, out);
  check(cudaGetLastError(), "cambi mode filter kernel launch");
}

void launch_band_codes(const uint16_t* image, int w, int h, const uint8_t* mask, int mask_width,
                       int mask_step, CambiContrast k, uint16_t* codes, cudaStream_t stream) {
  band_codes_kernel<<<grid_of(w, h, kBlockX, kBlockY), dim3(kBlockX, kBlockY), 0, stream>>>(
      image, w, h, mask, mask_width, mask_step, k, codes);
  check(cudaGetLastError(), "cambi band codes kernel launch");
}

void launch_contrast(const uint16_t* codes, int w, int h, CambiContrast k, CambiTables t,
                     float* values, uint64_t* records, cudaStream_t stream) {
  const int runs = (w + kRun - 1) / kRun;
  contrast_kernel<<<grid_of(runs, h, kBlockX, kBlockY), dim3(kBlockX, kBlockY), 0, stream>>>(
      codes, w, h, k, t, values, records);
  check(cudaGetLastError(), "cambi contrast kernel launch");
}

}  // namespace exactvq::cambi::cuda
