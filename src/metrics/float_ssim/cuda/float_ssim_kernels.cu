// float_ssim's kernels: every operation of docs/spec/float_ssim.md as an
// explicitly rounded intrinsic, one at a time in the reference's order
// (__fmul_rn, __fadd_rn, __fsub_rn, __fdiv_rn in binary32; __dmul_rn,
// __dadd_rn, __ddiv_rn, __dsqrt_rn in binary64; __double2float_rn), built with
// -fmad=false, so each sample, window and term has the CPU reference's bits.
// With fp64 emulated (kEmulate) every binary64 step is softfp's instead
// (metrics/float_ssim/softfp_terms.h, the OpenCL kernels' arithmetic): the tap
// sums of the decimation and the windows, the square root, l, c and the SSIM
// term; the binary32 steps stay the intrinsics above.
//
// The window and terms: a block of 32 x 16 positions loads its 42 x 26 input
// samples of both planes into shared memory, runs the horizontal pass of the
// five windowed quantities (ref, dist, ref*ref, dist*dist, ref*dist) over its
// 26 rows, then the vertical pass and the terms of each position.
#include "metrics/float_ssim/cuda/float_ssim_kernels.h"

#include "backends/cuda/cuda_check.h"
#include "metrics/float_ssim/softfp_terms.h"

namespace exactvq::float_ssim::cuda {

using exactvq::cuda::check;

namespace {

constexpr int kWindow = 11;
constexpr int kTileW = 32, kTileH = 16;
constexpr int kInW = kTileW + kWindow - 1, kInH = kTileH + kWindow - 1;
constexpr int kThreads = 256;

// libvmaf's picture_copy: 8-bit samples as they are; 10, 12, 16 bits over 4,
// 16, 256 in binary32, plus the offset 0 (every step exact).
__device__ __forceinline__ float sample_at(const uint8_t* p, size_t i, float) {
  return float(p[i]);
}
__device__ __forceinline__ float sample_at(const uint16_t* p, size_t i, float divisor) {
  return __fadd_rn(__fdiv_rn(float(p[i]), divisor), 0.0f);
}
__device__ __forceinline__ float sample_at(const float* p, size_t i, float) { return p[i]; }

__host__ __device__ inline float divisor_of(int bitdepth) {
  return bitdepth == 10 ? 4.0f : bitdepth == 12 ? 16.0f : 256.0f;
}

// iqa's KBND_SYMMETRIC: one reflection about the edge, the edge sample repeated.
__device__ __forceinline__ int mirror(int i, int n) {
  if (i < 0) return -1 - i;
  if (i >= n) return 2 * n - i - 1;
  return i;
}

// libvmaf's MAX(0.0, v) stored back to binary32: a NaN or a -0 stays.
__device__ __forceinline__ float floor_at_zero(float v) { return 0.0 > double(v) ? 0.0f : v; }

template <typename Sample>
__global__ void __launch_bounds__(kThreads)
    convert_kernel(const Sample* __restrict__ ref, const Sample* __restrict__ dist,
                   size_t in_stride, int count, float divisor, float* __restrict__ ref_out,
                   float* __restrict__ dist_out, size_t out_stride) {
  const size_t frame = blockIdx.y;
  const int i = int(blockIdx.x) * kThreads + int(threadIdx.x);
  if (i >= count) return;
  ref += frame * in_stride;
  dist += frame * in_stride;
  ref_out[frame * out_stride + size_t(i)] = sample_at(ref, size_t(i), divisor);
  dist_out[frame * out_stride + size_t(i)] = sample_at(dist, size_t(i), divisor);
}

// A softfp tap sum (its products' bit patterns) rounded to binary32.
__device__ __forceinline__ float soft_tap_sum(const uint32_t* products, int n) {
  return __uint_as_float(softfp_to_f32_bits(float_ssim_soft_tap_sum(products, n)));
}

// One output sample a thread: taps v (rows, outer) then u (columns, inner),
// products in binary32 widened and added in binary64 from 0.0.
template <typename Sample, bool kEmulate>
__global__ void __launch_bounds__(kThreads)
    decimate_kernel(const Sample* __restrict__ ref, const Sample* __restrict__ dist,
                    size_t in_stride, int width, int height, float divisor, FsKernel k, int factor,
                    int out_width, int out_height, float* __restrict__ ref_out,
                    float* __restrict__ dist_out, size_t out_stride) {
  const int x = int(blockIdx.x) * 32 + int(threadIdx.x % 32),
            y = int(blockIdx.y) * 8 + int(threadIdx.x / 32);
  if (x >= out_width || y >= out_height) return;
  const size_t frame = blockIdx.z;
  ref += frame * in_stride;
  dist += frame * in_stride;
  const int half = k.size / 2, last = half - (k.size % 2 == 0 ? 1 : 0);
  const int cx = x * factor, cy = y * factor;
  const size_t o = frame * out_stride + size_t(y) * size_t(out_width) + size_t(x);
  if constexpr (kEmulate) {
    uint32_t r[FsKernel::kMaxSize * FsKernel::kMaxSize], d[FsKernel::kMaxSize * FsKernel::kMaxSize];
    int t = 0;
    for (int v = -half; v <= last; ++v) {
      const size_t row = size_t(mirror(cy + v, height)) * size_t(width);
      for (int u = -half; u <= last; ++u, ++t) {
        const size_t i = row + size_t(mirror(cx + u, width));
        r[t] = __float_as_uint(__fmul_rn(sample_at(ref, i, divisor), k.taps[t]));
        d[t] = __float_as_uint(__fmul_rn(sample_at(dist, i, divisor), k.taps[t]));
      }
    }
    ref_out[o] = soft_tap_sum(r, t);
    dist_out[o] = soft_tap_sum(d, t);
    return;
  }
  double sum_ref = 0.0, sum_dist = 0.0;
  int t = 0;
  for (int v = -half; v <= last; ++v) {
    const size_t row = size_t(mirror(cy + v, height)) * size_t(width);
    for (int u = -half; u <= last; ++u, ++t) {
      const size_t i = row + size_t(mirror(cx + u, width));
      sum_ref = __dadd_rn(sum_ref, double(__fmul_rn(sample_at(ref, i, divisor), k.taps[t])));
      sum_dist = __dadd_rn(sum_dist, double(__fmul_rn(sample_at(dist, i, divisor), k.taps[t])));
    }
  }
  ref_out[o] = __double2float_rn(sum_ref);
  dist_out[o] = __double2float_rn(sum_dist);
}

// The five quantities the window runs over, from a reference and a distorted sample.
struct Quantities {
  float v[5];
};
__device__ __forceinline__ Quantities quantities(float r, float d) {
  return {{r, d, __fmul_rn(r, r), __fmul_rn(d, d), __fmul_rn(r, d)}};
}

template <bool kEmulate>
__global__ void __launch_bounds__(kThreads)
    terms_kernel(const float* __restrict__ ref, const float* __restrict__ dist, size_t in_stride,
                 int width, int height, FsConstants k, FsTerms out) {
  __shared__ float s_in[2][kInH][kInW];
  __shared__ float s_across[5][kInH][kTileW];
  const int ow = width - (kWindow - 1), oh = height - (kWindow - 1);
  const size_t frame = blockIdx.z;
  ref += frame * in_stride;
  dist += frame * in_stride;
  const int x0 = int(blockIdx.x) * kTileW, y0 = int(blockIdx.y) * kTileH;

  for (int i = int(threadIdx.x); i < kInW * kInH; i += kThreads) {
    const int r = i / kInW, c = i % kInW;
    const int x = x0 + c, y = y0 + r;
    if (x >= width || y >= height) continue;
    const size_t at = size_t(y) * size_t(width) + size_t(x);
    s_in[0][r][c] = ref[at];
    s_in[1][r][c] = dist[at];
  }
  __syncthreads();

  // Horizontal: every input row the block's positions reach.
  for (int i = int(threadIdx.x); i < kTileW * kInH; i += kThreads) {
    const int r = i / kTileW, c = i % kTileW;
    if (x0 + c >= ow || y0 + r >= height) continue;
    if constexpr (kEmulate) {
      uint32_t p[5][kWindow];
#pragma unroll
      for (int t = 0; t < kWindow; ++t) {
        const Quantities q = quantities(s_in[0][r][c + t], s_in[1][r][c + t]);
#pragma unroll
        for (int j = 0; j < 5; ++j) p[j][t] = __float_as_uint(__fmul_rn(q.v[j], k.window[t]));
      }
#pragma unroll
      for (int j = 0; j < 5; ++j) s_across[j][r][c] = soft_tap_sum(p[j], kWindow);
      continue;
    }
    double sum[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
#pragma unroll
    for (int t = 0; t < kWindow; ++t) {
      const Quantities q = quantities(s_in[0][r][c + t], s_in[1][r][c + t]);
#pragma unroll
      for (int j = 0; j < 5; ++j)
        sum[j] = __dadd_rn(sum[j], double(__fmul_rn(q.v[j], k.window[t])));
    }
#pragma unroll
    for (int j = 0; j < 5; ++j) s_across[j][r][c] = __double2float_rn(sum[j]);
  }
  __syncthreads();

  // Vertical, then the terms (reference.cpp's reference_terms, step by step).
  for (int i = int(threadIdx.x); i < kTileW * kTileH; i += kThreads) {
    const int r = i / kTileW, c = i % kTileW;
    const int x = x0 + c, y = y0 + r;
    if (x >= ow || y >= oh) continue;
    float window_of[5];
    if constexpr (kEmulate) {
#pragma unroll
      for (int j = 0; j < 5; ++j) {
        uint32_t p[kWindow];
#pragma unroll
        for (int t = 0; t < kWindow; ++t)
          p[t] = __float_as_uint(__fmul_rn(s_across[j][r + t][c], k.window[t]));
        window_of[j] = soft_tap_sum(p, kWindow);
      }
    } else {
      double sum[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
#pragma unroll
      for (int t = 0; t < kWindow; ++t) {
#pragma unroll
        for (int j = 0; j < 5; ++j)
          sum[j] = __dadd_rn(sum[j], double(__fmul_rn(s_across[j][r + t][c], k.window[t])));
      }
#pragma unroll
      for (int j = 0; j < 5; ++j) window_of[j] = __double2float_rn(sum[j]);
    }
    const float mu1 = window_of[0], mu2 = window_of[1];
    const float ref_sq = window_of[2], cmp_sq = window_of[3], both = window_of[4];
    const float mu1_sq = __fmul_rn(mu1, mu1), mu2_sq = __fmul_rn(mu2, mu2);
    const float var1 = floor_at_zero(__fsub_rn(ref_sq, mu1_sq));
    const float var2 = floor_at_zero(__fsub_rn(cmp_sq, mu2_sq));
    const float cov = __fsub_rn(both, __fmul_rn(mu1, mu2));
    const float var_product = __fmul_rn(var1, var2);
    const float sd12 = kEmulate ? __uint_as_float(float_ssim_soft_sd(__float_as_uint(var_product)))
                                : __double2float_rn(__dsqrt_rn(double(var_product)));
    const float lum_den = __fadd_rn(__fadd_rn(mu1_sq, mu2_sq), k.c1);
    const float con_den = __fadd_rn(__fadd_rn(var1, var2), k.c2);
    const float cov_kept = (cov < 0.0f && sd12 <= 0.0f) ? 0.0f : cov;
    const float s = __fdiv_rn(__fadd_rn(cov_kept, k.c3), __fadd_rn(sd12, k.c3));
    double l, c_term, lcs;
    if constexpr (kEmulate) {
      const float_ssim_soft_terms t = float_ssim_soft_terms_of(
          __float_as_uint(mu1), __float_as_uint(mu2), __float_as_uint(k.c1),
          __float_as_uint(lum_den), __float_as_uint(sd12), __float_as_uint(k.c2),
          __float_as_uint(con_den), __float_as_uint(s));
      l = __longlong_as_double((long long)t.l);
      c_term = __longlong_as_double((long long)t.c);
      lcs = __longlong_as_double((long long)t.lcs);
    } else {
      l = __ddiv_rn(__dadd_rn(__dmul_rn(__dmul_rn(2.0, double(mu1)), double(mu2)), double(k.c1)),
                    double(lum_den));
      c_term = __ddiv_rn(__dadd_rn(__dmul_rn(2.0, double(sd12)), double(k.c2)), double(con_den));
      lcs = __dmul_rn(__dmul_rn(l, c_term), double(s));
    }
    const size_t at = size_t(y) * size_t(ow) + size_t(x);
    const size_t base = frame * out.frame_stride;
    if (out.lcs) reinterpret_cast<double*>(reinterpret_cast<char*>(out.lcs) + base)[at] = lcs;
    if (out.l) reinterpret_cast<double*>(reinterpret_cast<char*>(out.l) + base)[at] = l;
    if (out.c) reinterpret_cast<double*>(reinterpret_cast<char*>(out.c) + base)[at] = c_term;
    if (out.s) reinterpret_cast<double*>(reinterpret_cast<char*>(out.s) + base)[at] = double(s);
  }
}

template <typename Sample>
const Sample* plane_of(const void* p) {
  return static_cast<const Sample*>(p);
}

}  // namespace

void launch_fs_convert(const FsPlanes& in, const FsFloatOut& out, cudaStream_t stream) {
  const int count = in.width * in.height;
  const dim3 grid(unsigned((count + kThreads - 1) / kThreads), unsigned(in.frames));
  const size_t out_stride = out.frame_stride / sizeof(float);
  const float divisor = divisor_of(in.bitdepth);
  if (in.bitdepth == 8)
    convert_kernel<uint8_t><<<grid, kThreads, 0, stream>>>(
        plane_of<uint8_t>(in.ref), plane_of<uint8_t>(in.dist), in.frame_stride, count, divisor,
        out.ref, out.dist, out_stride);
  else
    convert_kernel<uint16_t><<<grid, kThreads, 0, stream>>>(
        plane_of<uint16_t>(in.ref), plane_of<uint16_t>(in.dist), in.frame_stride / sizeof(uint16_t),
        count, divisor, out.ref, out.dist, out_stride);
  check(cudaGetLastError(), "float_ssim conversion kernel launch");
}

void launch_fs_decimate(const FsPlanes& in, const FsKernel& kernel, int factor, int out_width,
                        int out_height, const FsFloatOut& out, bool emulate_fp64,
                        cudaStream_t stream) {
  const dim3 grid(unsigned((out_width + 31) / 32), unsigned((out_height + 7) / 8),
                  unsigned(in.frames));
  const size_t out_stride = out.frame_stride / sizeof(float);
  const float divisor = divisor_of(in.bitdepth);
#define EXACTVQ_FS_DECIMATE_AS(Sample, kEmulate)                                              \
  decimate_kernel<Sample, kEmulate><<<grid, kThreads, 0, stream>>>(                           \
      plane_of<Sample>(in.ref), plane_of<Sample>(in.dist), in.frame_stride / sizeof(Sample),  \
      in.width, in.height, divisor, kernel, factor, out_width, out_height, out.ref, out.dist, \
      out_stride)
#define EXACTVQ_FS_DECIMATE(Sample)          \
  do {                                       \
    if (emulate_fp64)                        \
      EXACTVQ_FS_DECIMATE_AS(Sample, true);  \
    else                                     \
      EXACTVQ_FS_DECIMATE_AS(Sample, false); \
  } while (0)
  if (in.bitdepth == 0)
    EXACTVQ_FS_DECIMATE(float);
  else if (in.bitdepth == 8)
    EXACTVQ_FS_DECIMATE(uint8_t);
  else
    EXACTVQ_FS_DECIMATE(uint16_t);
#undef EXACTVQ_FS_DECIMATE
#undef EXACTVQ_FS_DECIMATE_AS
  check(cudaGetLastError(), "float_ssim decimation kernel launch");
}

void launch_fs_terms(const FsPlanes& in, const FsConstants& k, const FsTerms& out,
                     bool emulate_fp64, cudaStream_t stream) {
  const int ow = in.width - (kWindow - 1), oh = in.height - (kWindow - 1);
  const dim3 grid(unsigned((ow + kTileW - 1) / kTileW), unsigned((oh + kTileH - 1) / kTileH),
                  unsigned(in.frames));
  if (emulate_fp64)
    terms_kernel<true><<<grid, kThreads, 0, stream>>>(
        plane_of<float>(in.ref), plane_of<float>(in.dist), in.frame_stride / sizeof(float),
        in.width, in.height, k, out);
  else
    terms_kernel<false><<<grid, kThreads, 0, stream>>>(
        plane_of<float>(in.ref), plane_of<float>(in.dist), in.frame_stride / sizeof(float),
        in.width, in.height, k, out);
  check(cudaGetLastError(), "float_ssim window and terms kernel launch");
}

}  // namespace exactvq::float_ssim::cuda
