// adm's stages on the GPU, from the shared definition (metrics/adm/stages.h
// over definition.h, pixel.h and softfp_decouple.h): integers throughout but
// for the decoupling's angle test and enhancement (native fp64, -fmad=false,
// or emulated on integers as the OpenCL kernels do), so every sample equals
// the CPU reference's. A thread computes one output sample of a stage; the masking
// and denominator give each scored row to one block, which sums the row
// (modulo 2^64, as libvmaf's int64 and uint64 accumulators), rounds and shifts
// it as libvmaf shifts each row, and adds it with one integer atomic per
// orientation: sums of integers, the same in any order.
#include "metrics/adm/cuda/adm_kernels.h"

#include <cstring>

#include "backends/cuda/cuda_check.h"

namespace exactvq::adm::cuda {

using exactvq::cuda::check;

namespace {

namespace st = exactvq::adm::stages;

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
  return dim3(unsigned((w + kTileW - 1) / kTileW), unsigned((h + kTileH - 1) / kTileH),
              unsigned(frames));
}

bool empty(const st::Rect& r) { return r.right <= r.left || r.bottom <= r.top; }

// ---- DWT, one thread an output of the four subbands ----

template <typename Sample>
__global__ void __launch_bounds__(kTileW* kTileH)
    dwt0_kernel(const Sample* __restrict__ planes, size_t frame_stride, int width, int height,
                int bitdepth, Bands<int16_t> out) {
  const int j = int(blockIdx.x) * kTileW + int(threadIdx.x) % kTileW;
  const int i = int(blockIdx.y) * kTileH + int(threadIdx.x) / kTileW;
  if (j >= out.width || i >= out.height) return;
  const int frame = int(blockIdx.z);
  int16_t v[4];
  st::dwt0_at(planes + size_t(frame) * frame_stride, width, height, bitdepth, i, j, v);
  const size_t at = size_t(i) * size_t(out.width) + size_t(j);
  for (int k = 0; k < 4; ++k) out.band(k, frame)[at] = v[k];
}

template <typename Src>
__global__ void __launch_bounds__(kTileW* kTileH)
    dwt_s123_kernel(Bands<Src> src, int scale, Bands<int32_t> out) {
  const int j = int(blockIdx.x) * kTileW + int(threadIdx.x) % kTileW;
  const int i = int(blockIdx.y) * kTileH + int(threadIdx.x) / kTileW;
  if (j >= out.width || i >= out.height) return;
  const int frame = int(blockIdx.z);
  int32_t v[4];
  st::dwt_s123_at(src.band(0, frame), src.width, src.height, scale, i, j, v);
  const size_t at = size_t(i) * size_t(out.width) + size_t(j);
  for (int k = 0; k < 4; ++k) out.band(k, frame)[at] = v[k];
}

// ---- decoupling and CSF, one thread a sample of the filter region ----

// Number: double (native fp64) or softfp (emulated), st::decouple_sample's.
template <typename T, typename Number>
__global__ void __launch_bounds__(kTileW* kTileH)
    decouple_kernel(Bands<T> ref, Bands<T> dis, st::Rect g, Number gain_limit, Bands<T> restored,
                    Bands<T> additive) {
  const int j = g.left + int(blockIdx.x) * kTileW + int(threadIdx.x) % kTileW;
  const int i = g.top + int(blockIdx.y) * kTileH + int(threadIdx.x) / kTileW;
  if (j >= g.right || i >= g.bottom) return;
  const int frame = int(blockIdx.z);
  const T* const o[3] = {ref.band(1, frame), ref.band(2, frame), ref.band(3, frame)};
  const T* const t[3] = {dis.band(1, frame), dis.band(2, frame), dis.band(3, frame)};
  T* const r[3] = {restored.band(0, frame), restored.band(1, frame), restored.band(2, frame)};
  T* const a[3] = {additive.band(0, frame), additive.band(1, frame), additive.band(2, frame)};
  st::decouple_at(o, t, size_t(i) * size_t(ref.width) + size_t(j), gain_limit, r, a);
}

template <typename T>
__global__ void __launch_bounds__(kTileW* kTileH)
    csf_kernel(Bands<T> src, ScalePlan p, Bands<T> csf, Bands<T> flat) {
  const int j = p.filter.left + int(blockIdx.x) * kTileW + int(threadIdx.x) % kTileW;
  const int i = p.filter.top + int(blockIdx.y) * kTileH + int(threadIdx.x) / kTileW;
  if (j >= p.filter.right || i >= p.filter.bottom) return;
  const int frame = int(blockIdx.z);
  const T* const s[3] = {src.band(0, frame), src.band(1, frame), src.band(2, frame)};
  T* const c[3] = {csf.band(0, frame), csf.band(1, frame), csf.band(2, frame)};
  T* const f[3] = {flat.band(0, frame), flat.band(1, frame), flat.band(2, frame)};
  st::csf_at(s, size_t(i) * size_t(src.width) + size_t(j), p.factor, c, f);
}

// ---- row sums, one block a scored row (blockIdx.x) of a frame (blockIdx.y) ----

// v[0..2] summed over the block (modulo 2^64); the result in thread 0.
__device__ void block_sum3(unsigned long long v[3]) {
  __shared__ unsigned long long warps[3][kRowThreads / 32];
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  for (int b = 0; b < 3; ++b) {
    for (int offset = 16; offset > 0; offset /= 2)
      v[b] += __shfl_down_sync(0xffffffffu, v[b], offset);
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

template <typename T>
__global__ void __launch_bounds__(kRowThreads)
    masking_kernel(Bands<T> src, Bands<T> csf, Bands<T> flat, ScalePlan p,
                   unsigned long long* __restrict__ sums, size_t sums_stride) {
  const int i = p.scored.top + int(blockIdx.x);
  const int frame = int(blockIdx.y);
  const T* const s[3] = {src.band(0, frame), src.band(1, frame), src.band(2, frame)};
  const T* const c[3] = {csf.band(0, frame), csf.band(1, frame), csf.band(2, frame)};
  const T* const f[3] = {flat.band(0, frame), flat.band(1, frame), flat.band(2, frame)};
  unsigned long long acc[3] = {0, 0, 0};
  for (int j = p.scored.left + int(threadIdx.x); j < p.scored.right; j += kRowThreads) {
    int64_t term[3];
    st::masking_terms_at(s, c, f, src.width, src.height, i, j, p, term);
    for (int b = 0; b < 3; ++b) acc[b] += (unsigned long long)term[b];
  }
  block_sum3(acc);
  if (threadIdx.x != 0) return;
  unsigned long long* out = sums + size_t(frame) * sums_stride;
  for (int b = 0; b < 3; ++b)
    atomicAdd(out + b, (unsigned long long)st::masking_row_total(acc[b], p));
}

template <typename T>
__global__ void __launch_bounds__(kRowThreads)
    denominator_kernel(Bands<T> ref, int scale, ScalePlan p, unsigned long long* __restrict__ sums,
                       size_t sums_stride) {
  const int i = p.scored.top + int(blockIdx.x);
  const int frame = int(blockIdx.y);
  const T* const o[3] = {ref.band(1, frame), ref.band(2, frame), ref.band(3, frame)};
  const size_t row = size_t(i) * size_t(ref.width);
  unsigned long long acc[3] = {0, 0, 0};
  for (int j = p.scored.left + int(threadIdx.x); j < p.scored.right; j += kRowThreads) {
    uint64_t term[3];
    st::denominator_terms_at(o, row + size_t(j), scale, p, term);
    for (int b = 0; b < 3; ++b) acc[b] += term[b];
  }
  block_sum3(acc);
  if (threadIdx.x != 0) return;
  unsigned long long* out = sums + size_t(frame) * sums_stride;
  for (int b = 0; b < 3; ++b)
    atomicAdd(out + b, (unsigned long long)st::denominator_row_total(acc[b], p));
}

}  // namespace

void launch_adm_dwt0(const void* planes, size_t frame_stride, bool bytes, int width, int height,
                     int bitdepth, int frames, const AdmBands& out, cudaStream_t stream) {
  const dim3 grid = grid_of(out.width, out.height, frames);
  if (bytes)
    dwt0_kernel<uint8_t><<<grid, kTileW * kTileH, 0, stream>>>(static_cast<const uint8_t*>(planes),
                                                               frame_stride, width, height,
                                                               bitdepth, typed<int16_t>(out));
  else
    dwt0_kernel<uint16_t><<<grid, kTileW * kTileH, 0, stream>>>(
        static_cast<const uint16_t*>(planes), frame_stride / 2, width, height, bitdepth,
        typed<int16_t>(out));
  check(cudaGetLastError(), "adm dwt kernel launch");
}

void launch_adm_dwt_s123(const AdmBands& src, bool src_16, int scale, int frames,
                         const AdmBands& out, cudaStream_t stream) {
  const dim3 grid = grid_of(out.width, out.height, frames);
  if (src_16)
    dwt_s123_kernel<int16_t>
        <<<grid, kTileW * kTileH, 0, stream>>>(typed<int16_t>(src), scale, typed<int32_t>(out));
  else
    dwt_s123_kernel<int32_t>
        <<<grid, kTileW * kTileH, 0, stream>>>(typed<int32_t>(src), scale, typed<int32_t>(out));
  check(cudaGetLastError(), "adm dwt kernel launch");
}

namespace {

template <typename Number>
void decouple_by_scale(bool scale0, const AdmBands& ref, const AdmBands& dis, st::Rect g,
                       Number gain_limit, int frames, const AdmBands& restored,
                       const AdmBands& additive, cudaStream_t stream) {
  const dim3 grid = grid_of(g.right - g.left, g.bottom - g.top, frames);
  if (scale0)
    decouple_kernel<int16_t, Number><<<grid, kTileW * kTileH, 0, stream>>>(
        typed<int16_t>(ref), typed<int16_t>(dis), g, gain_limit, typed<int16_t>(restored),
        typed<int16_t>(additive));
  else
    decouple_kernel<int32_t, Number><<<grid, kTileW * kTileH, 0, stream>>>(
        typed<int32_t>(ref), typed<int32_t>(dis), g, gain_limit, typed<int32_t>(restored),
        typed<int32_t>(additive));
}

}  // namespace

void launch_adm_decouple(bool scale0, const AdmBands& ref, const AdmBands& dis, const ScalePlan& p,
                         double gain_limit, bool emulate_fp64, int frames, const AdmBands& restored,
                         const AdmBands& additive, cudaStream_t stream) {
  const st::Rect g = p.filter;
  if (empty(g)) return;
  if (emulate_fp64) {
    uint64_t limit_bits;
    static_assert(sizeof gain_limit == sizeof limit_bits);
    std::memcpy(&limit_bits, &gain_limit, sizeof limit_bits);
    decouple_by_scale(scale0, ref, dis, g, softfp_from_bits(limit_bits), frames, restored, additive,
                      stream);
  } else {
    decouple_by_scale(scale0, ref, dis, g, gain_limit, frames, restored, additive, stream);
  }
  check(cudaGetLastError(),
        emulate_fp64 ? "adm decouple kernel launch (fp64 emulated)" : "adm decouple kernel launch");
}

void launch_adm_csf(bool scale0, const AdmBands& src, const ScalePlan& p, int frames,
                    const AdmBands& csf, const AdmBands& flat, cudaStream_t stream) {
  const st::Rect g = p.filter;
  if (empty(g)) return;
  const dim3 grid = grid_of(g.right - g.left, g.bottom - g.top, frames);
  if (scale0)
    csf_kernel<int16_t><<<grid, kTileW * kTileH, 0, stream>>>(
        typed<int16_t>(src), p, typed<int16_t>(csf), typed<int16_t>(flat));
  else
    csf_kernel<int32_t><<<grid, kTileW * kTileH, 0, stream>>>(
        typed<int32_t>(src), p, typed<int32_t>(csf), typed<int32_t>(flat));
  check(cudaGetLastError(), "adm csf kernel launch");
}

void launch_adm_masking(bool scale0, const AdmBands& src, const AdmBands& csf, const AdmBands& flat,
                        const ScalePlan& p, int frames, uint64_t* sums, size_t sums_stride,
                        cudaStream_t stream) {
  if (empty(p.scored)) return;
  const dim3 grid(unsigned(p.scored.bottom - p.scored.top), unsigned(frames));
  auto* out = reinterpret_cast<unsigned long long*>(sums);
  if (scale0)
    masking_kernel<int16_t><<<grid, kRowThreads, 0, stream>>>(
        typed<int16_t>(src), typed<int16_t>(csf), typed<int16_t>(flat), p, out, sums_stride);
  else
    masking_kernel<int32_t><<<grid, kRowThreads, 0, stream>>>(
        typed<int32_t>(src), typed<int32_t>(csf), typed<int32_t>(flat), p, out, sums_stride);
  check(cudaGetLastError(), "adm masking kernel launch");
}

void launch_adm_denominator(int scale, const AdmBands& ref, const ScalePlan& p, int frames,
                            uint64_t* sums, size_t sums_stride, cudaStream_t stream) {
  if (empty(p.scored)) return;
  const dim3 grid(unsigned(p.scored.bottom - p.scored.top), unsigned(frames));
  auto* out = reinterpret_cast<unsigned long long*>(sums);
  if (scale == 0)
    denominator_kernel<int16_t>
        <<<grid, kRowThreads, 0, stream>>>(typed<int16_t>(ref), 0, p, out, sums_stride);
  else
    denominator_kernel<int32_t>
        <<<grid, kRowThreads, 0, stream>>>(typed<int32_t>(ref), scale, p, out, sums_stride);
  check(cudaGetLastError(), "adm denominator kernel launch");
}

}  // namespace exactvq::adm::cuda
