// SpEED's CUDA kernels: the binary32 steps (conversion, filters, window means)
// and the binary64 ones in native fp64 (speed_f64_kernels.cuh), and the
// launches that pick native or emulated binary64 (speed_kernels_emulate.cu).
#define SPEED_F64_NAMESPACE native
#include "metrics/speed/cuda/speed_f64_kernels.cuh"

namespace exactvq::speed::cuda {

using exactvq::cuda::check;

namespace {

constexpr int kTileW = 16, kTileH = 8, kThreads = kTileW * kTileH;

__global__ void __launch_bounds__(kThreads)
    load_kernel(const unsigned char* __restrict__ a, const unsigned char* __restrict__ b,
                int bitdepth, int w, int h, int src_w, float* __restrict__ out) {
  const int x = int(blockIdx.x) * kTileW + int(threadIdx.x) % kTileW;
  const int y = int(blockIdx.y) * kTileH + int(threadIdx.x) / kTileW;
  if (x >= w || y >= h) return;
  const exactvq_u64 i = exactvq_u64(y) * exactvq_u64(src_w) + exactvq_u64(x);
  float v = speed_load_sample(a, i, bitdepth);
  if (b) v = __fsub_rn(v, speed_load_sample(b, i, bitdepth));
  out[size_t(y) * size_t(w) + size_t(x)] = v;
}

__global__ void __launch_bounds__(kThreads)
    resample_kernel(const float* __restrict__ src, int src_w, int method, int taps,
                    const int* __restrict__ ix, const float* __restrict__ wx,
                    const int* __restrict__ iy, const float* __restrict__ wy, int w, int h,
                    float* __restrict__ out) {
  const int x = int(blockIdx.x) * kTileW + int(threadIdx.x) % kTileW;
  const int y = int(blockIdx.y) * kTileH + int(threadIdx.x) / kTileW;
  if (x >= w || y >= h) return;
  out[size_t(y) * size_t(w) + size_t(x)] =
      speed_resample_at(method, src, exactvq_u64(src_w), ix + x * taps, wx + x * taps,
                        iy + y * taps, wy + y * taps, taps);
}

__global__ void __launch_bounds__(kThreads)
    decimate_kernel(const float* __restrict__ src, int w, int h, const float* __restrict__ taps,
                    int count, int dw, int dh, float* __restrict__ down) {
  const int j = int(blockIdx.x) * kTileW + int(threadIdx.x) % kTileW;
  const int i = int(blockIdx.y) * kTileH + int(threadIdx.x) / kTileW;
  if (j >= dw || i >= dh) return;
  down[size_t(i) * size_t(dw) + size_t(j)] =
      speed_filtered_at(taps, count, src, exactvq_u64(w), w, h, i * 16, j * 16);
}

__global__ void __launch_bounds__(kThreads)
    residual_kernel(const float* __restrict__ down, int dw, int dh, const float* __restrict__ taps,
                    int count, float* __restrict__ residual) {
  const int j = int(blockIdx.x) * kTileW + int(threadIdx.x) % kTileW;
  const int i = int(blockIdx.y) * kTileH + int(threadIdx.x) / kTileW;
  if (j >= dw || i >= dh) return;
  const size_t at = size_t(i) * size_t(dw) + size_t(j);
  residual[at] =
      __fsub_rn(down[at], speed_filtered_at(taps, count, down, exactvq_u64(dw), dw, dh, i, j));
}

__global__ void means_kernel(const float* __restrict__ data, int dw, int sub_w, int sub_h,
                             float count, float* __restrict__ means) {
  const int k = int(threadIdx.x);
  if (k >= SPEED_BLOCK_ELEMENTS) return;
  means[k] = speed_window_mean(data, exactvq_u64(dw), sub_w, sub_h, k, count);
}

dim3 tiles(int w, int h) {
  return dim3(unsigned((w + kTileW - 1) / kTileW), unsigned((h + kTileH - 1) / kTileH));
}

}  // namespace

void launch_speed_load(const void* a, const void* b, int bitdepth, int src_w, const SpeedShape& s,
                       const SpeedSide& side, cudaStream_t stream) {
  const bool resample = s.resample_taps > 0;
  load_kernel<<<tiles(s.source_width, s.source_height), kThreads, 0, stream>>>(
      static_cast<const unsigned char*>(a), static_cast<const unsigned char*>(b), bitdepth,
      s.source_width, s.source_height, src_w, resample ? s.source : side.plane);
  check(cudaGetLastError(), "SpEED load kernel launch");
  if (!resample) return;
  resample_kernel<<<tiles(s.width, s.height), kThreads, 0, stream>>>(
      s.source, s.source_width, s.resample_method, s.resample_taps, s.column_index, s.column_weight,
      s.row_index, s.row_weight, s.width, s.height, side.plane);
  check(cudaGetLastError(), "SpEED prescale kernel launch");
}

void launch_speed_filters(const SpeedShape& s, const SpeedSide& side, cudaStream_t stream) {
  decimate_kernel<<<tiles(s.dw, s.dh), kThreads, 0, stream>>>(
      side.plane, s.width, s.height, s.antialias, s.antialias_count, s.dw, s.dh, side.down);
  check(cudaGetLastError(), "SpEED decimation kernel launch");
  residual_kernel<<<tiles(s.dw, s.dh), kThreads, 0, stream>>>(side.down, s.dw, s.dh, s.local_mean,
                                                              s.local_mean_count, side.residual);
  check(cudaGetLastError(), "SpEED residual kernel launch");
  means_kernel<<<1, 32, 0, stream>>>(side.residual, s.dw, s.sub_w, s.sub_h, s.window_count,
                                     side.means);
  check(cudaGetLastError(), "SpEED window means kernel launch");
}

void launch_speed_covariance(const SpeedShape& s, const SpeedSide& side, bool emulate_fp64,
                             cudaStream_t stream) {
  if (emulate_fp64)
    emulate::launch_covariance(s, side, stream);
  else
    native::launch_covariance(s, side, stream);
}

void launch_speed_blocks(const SpeedShape& s, const SpeedSide& side, bool singular,
                         bool emulate_fp64, cudaStream_t stream) {
  if (emulate_fp64)
    emulate::launch_blocks(s, side, singular, stream);
  else
    native::launch_blocks(s, side, singular, stream);
}

void launch_speed_terms(const SpeedShape& s, const SpeedSide& ref, const SpeedSide& dis,
                        float base_entropy, int mode, float* terms, int* invalid, bool emulate_fp64,
                        cudaStream_t stream) {
  if (emulate_fp64)
    emulate::launch_terms(s, ref, dis, base_entropy, mode, terms, invalid, stream);
  else
    native::launch_terms(s, ref, dis, base_entropy, mode, terms, invalid, stream);
}

}  // namespace exactvq::speed::cuda
