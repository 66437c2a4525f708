// adm's stages on the GPU, from the shared per-sample definition
// (metrics/adm/pixel.h): integers throughout but for the decoupling's angle
// test and enhancement (native fp64, -fmad=false), so every sample equals the
// CPU reference's. A thread computes one output sample of a stage; the
// masking and denominator give each scored row to one block, which sums the
// row (modulo 2^64, as libvmaf's int64 and uint64 accumulators), rounds and
// shifts it as libvmaf shifts each row, and adds it with one integer atomic
// per orientation: sums of integers, the same in any order.
#include "metrics/adm/cuda/adm_kernels.h"

#include "backends/cuda/cuda_check.h"
#include "metrics/adm/pixel.h"

namespace exactvq::cuda {

namespace {

namespace px = exactvq::adm::pixel;

constexpr int kTileW = 32, kTileH = 8;
constexpr int kRowThreads = 256;

template <typename T>
struct Bands {
  T* base;
  size_t frame_stride, band_stride;
  int width, height;
  __device__ T* band(int b, int frame) const {
    return base + size_t(b) * band_stride + size_t(frame) * frame_stride;
  }
};

template <typename T>
Bands<T> typed(const AdmBands& b) {
  return {static_cast<T*>(b.base), b.frame_stride, b.band_stride, b.width, b.height};
}

dim3 grid_of(int w, int h, int frames) {
  return dim3(unsigned((w + kTileW - 1) / kTileW), unsigned((h + kTileH - 1) / kTileH), unsigned(frames));
}

// ---- DWT ----

template <typename Sample>
__global__ void __launch_bounds__(kTileW* kTileH)
    dwt0_kernel(const Sample* __restrict__ planes, size_t frame_stride, int width, int height, int bitdepth,
                Bands<int16_t> out) {
  const int j = int(blockIdx.x) * kTileW + int(threadIdx.x) % kTileW;
  const int i = int(blockIdx.y) * kTileH + int(threadIdx.x) / kTileW;
  if (j >= out.width || i >= out.height) return;
  const int frame = int(blockIdx.z);
  const Sample* p = planes + size_t(frame) * frame_stride;
  int rows[4], cols[4];
  for (int k = 0; k < 4; ++k) {
    rows[k] = px::dwt_mirror(2 * i - 1 + k, height);
    cols[k] = px::dwt_mirror(2 * j - 1 + k, width);
  }
  int16_t lo[4], hi[4];
  for (int c = 0; c < 4; ++c) {
    int64_t s[4];
    for (int k = 0; k < 4; ++k) s[k] = p[size_t(rows[k]) * size_t(width) + size_t(cols[c])];
    lo[c] = px::dwt0_vertical_lo(s, bitdepth);
    hi[c] = px::dwt0_vertical_hi(s, bitdepth);
  }
  const size_t at = size_t(i) * size_t(out.width) + size_t(j);
  out.band(0, frame)[at] = px::dwt0_horizontal_low(lo);
  out.band(1, frame)[at] = px::dwt0_horizontal_low(hi);   // h
  out.band(2, frame)[at] = px::dwt0_horizontal_high(lo);  // v
  out.band(3, frame)[at] = px::dwt0_horizontal_high(hi);  // d
}

template <typename Src>
__global__ void __launch_bounds__(kTileW* kTileH) dwt_s123_kernel(Bands<Src> src, int scale, Bands<int32_t> out) {
  const int j = int(blockIdx.x) * kTileW + int(threadIdx.x) % kTileW;
  const int i = int(blockIdx.y) * kTileH + int(threadIdx.x) / kTileW;
  if (j >= out.width || i >= out.height) return;
  const int frame = int(blockIdx.z);
  const Src* p = src.band(0, frame);
  int rows[4], cols[4];
  for (int k = 0; k < 4; ++k) {
    rows[k] = px::dwt_mirror(2 * i - 1 + k, src.height);
    cols[k] = px::dwt_mirror(2 * j - 1 + k, src.width);
  }
  const int64_t v_round = px::dwt_s123_vertical_round(scale);
  const int v_shift = px::dwt_s123_vertical_shift(scale);
  int32_t lo[4], hi[4];
  for (int c = 0; c < 4; ++c) {
    int32_t x[4];
    for (int k = 0; k < 4; ++k) x[k] = int32_t(p[size_t(rows[k]) * size_t(src.width) + size_t(cols[c])]);
    lo[c] = px::dwt_s123_tap(x, true, v_round, v_shift);
    hi[c] = px::dwt_s123_tap(x, false, v_round, v_shift);
  }
  const int64_t h_round = px::dwt_s123_horizontal_round(scale);
  const int h_shift = px::dwt_s123_horizontal_shift(scale);
  const size_t at = size_t(i) * size_t(out.width) + size_t(j);
  out.band(0, frame)[at] = px::dwt_s123_tap(lo, true, h_round, h_shift);
  out.band(1, frame)[at] = px::dwt_s123_tap(hi, true, h_round, h_shift);   // h
  out.band(2, frame)[at] = px::dwt_s123_tap(lo, false, h_round, h_shift);  // v
  out.band(3, frame)[at] = px::dwt_s123_tap(hi, false, h_round, h_shift);  // d
}

// ---- decoupling and CSF, over the filter region ----

template <typename T>
__global__ void __launch_bounds__(kTileW* kTileH)
    decouple_kernel(Bands<T> ref, Bands<T> dis, AdmRegion g, double gain_limit, Bands<T> restored,
                    Bands<T> additive) {
  const int j = g.left + int(blockIdx.x) * kTileW + int(threadIdx.x) % kTileW;
  const int i = g.top + int(blockIdx.y) * kTileH + int(threadIdx.x) / kTileW;
  if (j >= g.right || i >= g.bottom) return;
  const int frame = int(blockIdx.z);
  const size_t at = size_t(i) * size_t(ref.width) + size_t(j);
  T o[3], t[3], r[3], a[3];
  for (int b = 0; b < 3; ++b) {
    o[b] = ref.band(1 + b, frame)[at];
    t[b] = dis.band(1 + b, frame)[at];
  }
  if constexpr (sizeof(T) == 2) px::decouple_s0(o, t, gain_limit, r, a);
  else px::decouple_s123(o, t, gain_limit, r, a);
  for (int b = 0; b < 3; ++b) {
    restored.band(b, frame)[at] = r[b];
    additive.band(b, frame)[at] = a[b];
  }
}

struct CsfFactor {
  uint32_t factor[3];
};

template <typename T>
__global__ void __launch_bounds__(kTileW* kTileH)
    csf_kernel(Bands<T> src, AdmRegion g, CsfFactor f, Bands<T> csf, Bands<T> flat) {
  const int j = g.left + int(blockIdx.x) * kTileW + int(threadIdx.x) % kTileW;
  const int i = g.top + int(blockIdx.y) * kTileH + int(threadIdx.x) / kTileW;
  if (j >= g.right || i >= g.bottom) return;
  const int frame = int(blockIdx.z);
  const size_t at = size_t(i) * size_t(src.width) + size_t(j);
  for (int b = 0; b < 3; ++b) {
    if constexpr (sizeof(T) == 2) {
      // reference.cpp's csf_scale0: shifts 15, 15, 17; libvmaf's rounding 65535, not 65536, for d.
      const int shift = b == 2 ? 17 : 15;
      const int32_t round = b == 2 ? 65535 : 16384;
      px::csf_s0(src.band(b, frame)[at], uint16_t(f.factor[b]), shift, round, csf.band(b, frame) + at,
                 flat.band(b, frame) + at);
    } else {
      px::csf_s123(src.band(b, frame)[at], f.factor[b], csf.band(b, frame) + at, flat.band(b, frame) + at);
    }
  }
}

// ---- row sums ----

// v[0..2] summed over the block (modulo 2^64); the result in thread 0.
__device__ void block_sum3(unsigned long long v[3]) {
  __shared__ unsigned long long warps[3][kRowThreads / 32];
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  for (int b = 0; b < 3; ++b) {
    for (int offset = 16; offset > 0; offset /= 2) v[b] += __shfl_down_sync(0xffffffffu, v[b], offset);
    if (lane == 0) warps[b][warp] = v[b];
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  for (int b = 0; b < 3; ++b) {
    unsigned long long total = 0;
    for (int w = 0; w < kRowThreads / 32; ++w) total += warps[b][w];
    v[b] = total;
  }
}

// One block per scored row (blockIdx.x) and frame (blockIdx.y).
template <typename T>
__global__ void __launch_bounds__(kRowThreads)
    masking_kernel(Bands<T> src, Bands<T> csf, Bands<T> flat, AdmRegion g, CsfFactor f, AdmCube cube,
                   int row_shift, int64_t row_round, unsigned long long* __restrict__ sums, size_t sums_stride) {
  const int i = g.top + int(blockIdx.x);
  const int frame = int(blockIdx.y);
  const int w = src.width, h = src.height;
  const int above = i == 0 ? 1 : i - 1;
  const int below = i == h - 1 ? h - 1 : i + 1;
  const size_t row = size_t(i) * size_t(w), row_above = size_t(above) * size_t(w),
               row_below = size_t(below) * size_t(w);
  unsigned long long acc[3] = {0, 0, 0};
  for (int j = g.left + int(threadIdx.x); j < g.right; j += kRowThreads) {
    const int jl = j == 0 ? 1 : j - 1;
    const int jr = j == w - 1 ? w - 1 : j + 1;
    int32_t threshold_s0 = 0;
    uint32_t threshold_s123 = 0;
    for (int b = 0; b < 3; ++b) {
      const T* fl = flat.band(b, frame);
      const int32_t n = px::neighbour_sum<T>(fl[row_above + jl], fl[row_above + j], fl[row_above + jr], fl[row + jl],
                                             fl[row + jr], fl[row_below + jl], fl[row_below + j], fl[row_below + jr]);
      const T centre = csf.band(b, frame)[row + j];
      if constexpr (sizeof(T) == 2) threshold_s0 += px::threshold_part_s0(centre, n);
      else threshold_s123 += px::threshold_part_s123(centre, n);
    }
    for (int b = 0; b < 3; ++b) {
      const T x = src.band(b, frame)[row + j];
      int64_t term;
      if constexpr (sizeof(T) == 2)
        term = px::masking_term_s0(x, uint16_t(f.factor[b]), threshold_s0, b, cube.shift[b], cube.round[b]);
      else
        term = px::masking_term_s123(x, f.factor[b], threshold_s123, cube.shift[b], cube.round[b]);
      acc[b] += (unsigned long long)term;
    }
  }
  block_sum3(acc);
  if (threadIdx.x != 0) return;
  unsigned long long* out = sums + size_t(frame) * sums_stride;
  for (int b = 0; b < 3; ++b) {
    // reference.cpp's masking_sums: the int64 row sum rounded and shifted (arithmetic shift).
    const int64_t shifted = px::wrapping_add(int64_t(acc[b]), row_round) >> row_shift;
    atomicAdd(out + b, (unsigned long long)shifted);
  }
}

template <typename T>
__global__ void __launch_bounds__(kRowThreads)
    denominator_kernel(Bands<T> ref, AdmRegion g, int scale, int cube_shift, uint64_t cube_round, int row_shift,
                       uint64_t row_round, unsigned long long* __restrict__ sums, size_t sums_stride) {
  const int i = g.top + int(blockIdx.x);
  const int frame = int(blockIdx.y);
  const size_t row = size_t(i) * size_t(ref.width);
  const int q = scale == 0 ? 0 : px::denominator_square_shift(scale);
  unsigned long long acc[3] = {0, 0, 0};
  for (int j = g.left + int(threadIdx.x); j < g.right; j += kRowThreads)
    for (int b = 0; b < 3; ++b) {
      const T o = ref.band(1 + b, frame)[row + j];
      if constexpr (sizeof(T) == 2) acc[b] += px::denominator_term_s0(o);
      else acc[b] += px::denominator_term_s123(o, q, cube_shift, cube_round);
    }
  block_sum3(acc);
  if (threadIdx.x != 0) return;
  unsigned long long* out = sums + size_t(frame) * sums_stride;
  for (int b = 0; b < 3; ++b) atomicAdd(out + b, (acc[b] + row_round) >> row_shift);
}

}  // namespace

void launch_adm_dwt0(const void* planes, size_t frame_stride, bool bytes, int width, int height, int bitdepth,
                     int frames, const AdmBands& out, cudaStream_t stream) {
  const dim3 grid = grid_of(out.width, out.height, frames);
  if (bytes)
    dwt0_kernel<uint8_t><<<grid, kTileW * kTileH, 0, stream>>>(static_cast<const uint8_t*>(planes), frame_stride,
                                                               width, height, bitdepth, typed<int16_t>(out));
  else
    dwt0_kernel<uint16_t><<<grid, kTileW * kTileH, 0, stream>>>(
        static_cast<const uint16_t*>(planes), frame_stride / 2, width, height, bitdepth, typed<int16_t>(out));
  check(cudaGetLastError(), "adm dwt kernel launch");
}

void launch_adm_dwt_s123(const AdmBands& src, bool src_16, int scale, int frames, const AdmBands& out,
                         cudaStream_t stream) {
  const dim3 grid = grid_of(out.width, out.height, frames);
  if (src_16)
    dwt_s123_kernel<int16_t><<<grid, kTileW * kTileH, 0, stream>>>(typed<int16_t>(src), scale, typed<int32_t>(out));
  else
    dwt_s123_kernel<int32_t><<<grid, kTileW * kTileH, 0, stream>>>(typed<int32_t>(src), scale, typed<int32_t>(out));
  check(cudaGetLastError(), "adm dwt kernel launch");
}

void launch_adm_decouple(bool scale0, const AdmBands& ref, const AdmBands& dis, const AdmRegion& g,
                         double gain_limit, int frames, const AdmBands& restored, const AdmBands& additive,
                         cudaStream_t stream) {
  if (g.right <= g.left || g.bottom <= g.top) return;
  const dim3 grid = grid_of(g.right - g.left, g.bottom - g.top, frames);
  if (scale0)
    decouple_kernel<int16_t><<<grid, kTileW * kTileH, 0, stream>>>(
        typed<int16_t>(ref), typed<int16_t>(dis), g, gain_limit, typed<int16_t>(restored), typed<int16_t>(additive));
  else
    decouple_kernel<int32_t><<<grid, kTileW * kTileH, 0, stream>>>(
        typed<int32_t>(ref), typed<int32_t>(dis), g, gain_limit, typed<int32_t>(restored), typed<int32_t>(additive));
  check(cudaGetLastError(), "adm decouple kernel launch");
}

void launch_adm_csf(bool scale0, const AdmBands& src, const AdmRegion& g, const uint32_t factor[3], int frames,
                    const AdmBands& csf, const AdmBands& flat, cudaStream_t stream) {
  if (g.right <= g.left || g.bottom <= g.top) return;
  const dim3 grid = grid_of(g.right - g.left, g.bottom - g.top, frames);
  const CsfFactor f{{factor[0], factor[1], factor[2]}};
  if (scale0)
    csf_kernel<int16_t><<<grid, kTileW * kTileH, 0, stream>>>(typed<int16_t>(src), g, f, typed<int16_t>(csf),
                                                              typed<int16_t>(flat));
  else
    csf_kernel<int32_t><<<grid, kTileW * kTileH, 0, stream>>>(typed<int32_t>(src), g, f, typed<int32_t>(csf),
                                                              typed<int32_t>(flat));
  check(cudaGetLastError(), "adm csf kernel launch");
}

void launch_adm_masking(bool scale0, const AdmBands& src, const AdmBands& csf, const AdmBands& flat,
                        const AdmRegion& g, const uint32_t factor[3], const AdmCube& cube, int row_shift,
                        int64_t row_round, int frames, uint64_t* sums, size_t sums_stride, cudaStream_t stream) {
  if (g.right <= g.left || g.bottom <= g.top) return;
  const dim3 grid(unsigned(g.bottom - g.top), unsigned(frames));
  const CsfFactor f{{factor[0], factor[1], factor[2]}};
  auto* out = reinterpret_cast<unsigned long long*>(sums);
  if (scale0)
    masking_kernel<int16_t><<<grid, kRowThreads, 0, stream>>>(typed<int16_t>(src), typed<int16_t>(csf),
                                                              typed<int16_t>(flat), g, f, cube, row_shift, row_round,
                                                              out, sums_stride);
  else
    masking_kernel<int32_t><<<grid, kRowThreads, 0, stream>>>(typed<int32_t>(src), typed<int32_t>(csf),
                                                              typed<int32_t>(flat), g, f, cube, row_shift, row_round,
                                                              out, sums_stride);
  check(cudaGetLastError(), "adm masking kernel launch");
}

void launch_adm_denominator(int scale, const AdmBands& ref, const AdmRegion& g, int cube_shift, uint64_t cube_round,
                            int row_shift, uint64_t row_round, int frames, uint64_t* sums, size_t sums_stride,
                            cudaStream_t stream) {
  if (g.right <= g.left || g.bottom <= g.top) return;
  const dim3 grid(unsigned(g.bottom - g.top), unsigned(frames));
  auto* out = reinterpret_cast<unsigned long long*>(sums);
  if (scale == 0)
    denominator_kernel<int16_t><<<grid, kRowThreads, 0, stream>>>(typed<int16_t>(ref), g, 0, cube_shift, cube_round,
                                                                  row_shift, row_round, out, sums_stride);
  else
    denominator_kernel<int32_t><<<grid, kRowThreads, 0, stream>>>(typed<int32_t>(ref), g, scale, cube_shift,
                                                                  cube_round, row_shift, row_round, out, sums_stride);
  check(cudaGetLastError(), "adm denominator kernel launch");
}

}  // namespace exactvq::cuda
