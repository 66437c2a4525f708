// SpEED's CUDA kernels: the binary32 steps (conversion, filters)
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
    decimate_kernel(speed_source src, int w, int h, const float* __restrict__ taps, int count,
                    int dw, int dh, float* __restrict__ down) {
  const int j = int(blockIdx.x) * kTileW + int(threadIdx.x) % kTileW;
  const int i = int(blockIdx.y) * kTileH + int(threadIdx.x) / kTileW;
  if (j >= dw || i >= dh) return;
  down[size_t(i) * size_t(dw) + size_t(j)] =
      speed_filtered_at(taps, count, src, w, h, i * 16, j * 16);
}

__global__ void __launch_bounds__(kThreads)
    residual_kernel(const float* __restrict__ down, int dw, int dh, const float* __restrict__ taps,
                    int count, float* __restrict__ residual) {
  const int j = int(blockIdx.x) * kTileW + int(threadIdx.x) % kTileW;
  const int i = int(blockIdx.y) * kTileH + int(threadIdx.x) / kTileW;
  if (j >= dw || i >= dh) return;
  const size_t at = size_t(i) * size_t(dw) + size_t(j);
  residual[at] = __fsub_rn(
      down[at], speed_filtered_at(taps, count, speed_floats(down, exactvq_u64(dw)), dw, dh, i, j));
}

dim3 tiles(int w, int h) {
  return dim3(unsigned((w + kTileW - 1) / kTileW), unsigned((h + kTileH - 1) / kTileH));
}

}  // namespace

void launch_speed_residual(const void* a, const void* b, int bitdepth, int src_w,
                           const SpeedShape& s, const SpeedSide& side, cudaStream_t stream) {
  const auto* sa = static_cast<const unsigned char*>(a);
  const auto* sb = static_cast<const unsigned char*>(b);
  // Unscaled, the anti-alias filter reads the samples in place.
  speed_source filtered = speed_samples(sa, sb, exactvq_u64(src_w), bitdepth);
  if (s.resample_taps > 0) {
    load_kernel<<<tiles(s.source_width, s.source_height), kThreads, 0, stream>>>(
        sa, sb, bitdepth, s.source_width, s.source_height, src_w, s.source);
    check(cudaGetLastError(), "SpEED load kernel launch");
    resample_kernel<<<tiles(s.width, s.height), kThreads, 0, stream>>>(
        s.source, s.source_width, s.resample_method, s.resample_taps, s.column_index,
        s.column_weight, s.row_index, s.row_weight, s.width, s.height, side.plane);
    check(cudaGetLastError(), "SpEED prescale kernel launch");
    filtered = speed_floats(side.plane, exactvq_u64(s.width));
  }
  decimate_kernel<<<tiles(s.dw, s.dh), kThreads, 0, stream>>>(
      filtered, s.width, s.height, s.antialias, s.antialias_count, s.dw, s.dh, side.down);
  check(cudaGetLastError(), "SpEED decimation kernel launch");
  residual_kernel<<<tiles(s.dw, s.dh), kThreads, 0, stream>>>(side.down, s.dw, s.dh, s.local_mean,
                                                              s.local_mean_count, side.residual);
  check(cudaGetLastError(), "SpEED residual kernel launch");
}

size_t speed_staged_bytes(const SpeedShape& s) {
  const size_t tw = size_t(s.sub_w) + SPEED_BLOCK - 1, th = size_t(s.sub_h) + SPEED_BLOCK - 1;
  return (size_t(kSpeedMeanSlots) + tw * th) * sizeof(float);
}

void launch_speed_statistics(const SpeedShape& s, const SpeedSides& sides, bool emulate_fp64,
                             cudaStream_t stream) {
  if (emulate_fp64)
    emulate::launch_statistics(s, sides, stream);
  else
    native::launch_statistics(s, sides, stream);
}

void launch_speed_blocks(const SpeedShape& s, const SpeedSides& sides, bool emulate_fp64,
                         cudaStream_t stream) {
  if (emulate_fp64)
    emulate::launch_blocks(s, sides, stream);
  else
    native::launch_blocks(s, sides, stream);
}

void launch_speed_terms(const SpeedShape& s, const SpeedSides& sides, float base_entropy, int mode,
                        bool emulate_fp64, cudaStream_t stream) {
  if (emulate_fp64)
    emulate::launch_terms(s, sides, base_entropy, mode, stream);
  else
    native::launch_terms(s, sides, base_entropy, mode, stream);
}

}  // namespace exactvq::speed::cuda
