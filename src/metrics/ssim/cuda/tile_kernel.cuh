// The tile kernels of the ssim engine, as templates: the production launches
// (ssim_kernels.cu) and the benchmarks' measured variants (bench/cuda/)
// instantiate them. A block loads a tile of both planes with a 4-sample halo
// into shared memory (samples outside the plane load as 0, which leaves their
// taps out of every moment as truncated windows do); each thread walks down its
// output columns keeping the last nine rows' horizontal moments in registers
// (the emulated kernel keeps the open windows' partial sums instead); the block
// adds its fixed points in 128 bits. Every moment is an exact integer, so the
// order of its additions is free: a 9-tap sum whose total fits 32 bits is
// folded by the taps' symmetry (every partial value is at most the total), one
// that needs 64 bits uses widening multiply-adds. The shapes measured:
// docs/figures.md.
#pragma once

#include <fmt/format.h>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/share_out.cuh"
#include "metrics/ssim/cuda/block_sum.cuh"
#include "metrics/ssim/cuda/device_term.cuh"
#include "metrics/ssim/cuda/ssim_kernels.h"

namespace exactvq::ssim::cuda {

using exactvq::cuda::check;
using exactvq::cuda::share_out;

// What the tile kernel computes; everything but kFull exists to time stages.
enum class KernelStage {
  kFull,     // moments, term, fixed point and reduction
  kMoments,  // moments only, folded into a checksum that is reduced like the sum
  kTerm,     // moments and term, the term's bits folded into that checksum
};

namespace {

constexpr int kThreads = 64;  // threads per block
constexpr int kRadius = EXACTVQ_SSIM_RADIUS;

// sum g[k] * v[k] over the nine taps, exactly. Acc is the type of the total,
// which the caller proves fits; T is the type of each value (T no wider than Acc).
template <typename Acc, typename T>
__device__ __forceinline__ Acc fir9(T v0, T v1, T v2, T v3, T v4, T v5, T v6, T v7, T v8) {
  if constexpr (sizeof(Acc) == 4) {
    // Folded: each partial value is at most the total, so 32 bits never wrap.
    return 2u * (v0 + v8) + 9u * (v1 + v7) + 28u * (v2 + v6) + 55u * (v3 + v5) + 68u * v4;
  } else {
    // Widening multiply-adds (T may be 32 bits; each product and sum in 64).
    return Acc{2} * v0 + Acc{9} * v1 + Acc{28} * v2 + Acc{55} * v3 + Acc{68} * v4 + Acc{55} * v5 +
           Acc{28} * v6 + Acc{9} * v7 + Acc{2} * v8;
  }
}

// One row's horizontal moments at one column. HWide holds the second-order
// sums: < 2^(2b+8), so 32 bits up to 12-bit samples. m, n < 2^(b+8) <= 2^24.
template <typename HWide>
struct Horizontal {
  uint32_t m, n;
  HWide xx, xy, yy;
};

// The nine taps of column c among values v[0 .. kNc+7].
#define EXACTVQ_FIR9(Acc, v, c)                                                             \
  fir9<Acc>(v[(c)], v[(c) + 1], v[(c) + 2], v[(c) + 3], v[(c) + 4], v[(c) + 5], v[(c) + 6], \
            v[(c) + 7], v[(c) + 8])

// The horizontal moments of kNc adjacent columns of one tile row; `row` points
// at the tile word under tap 0 of the first column; each word is s | d << 16.
// Each sample's products are formed once for all kNc columns.
template <int kNc, bool kEightBit, typename HWide>
__device__ __forceinline__ void horizontal(const uint32_t* row, Horizontal<HWide> (&h)[kNc]) {
  constexpr int kN = kNc + 8;
  uint32_t p[kN], s[kN], d[kN], ss[kN], sd[kN], dd[kN];
  if constexpr (kNc % 2 == 0) {
#pragma unroll
    for (int i = 0; i < kN; i += 2) {  // 8-byte loads: the row pointer is even
      const uint2 v = *reinterpret_cast<const uint2*>(row + i);
      p[i] = v.x;
      p[i + 1] = v.y;
    }
  } else {
#pragma unroll
    for (int i = 0; i < kN; ++i) p[i] = row[i];
  }
#pragma unroll
  for (int i = 0; i < kN; ++i) {
    s[i] = p[i] & 0xffff;
    d[i] = p[i] >> 16;
    ss[i] = s[i] * s[i];  // < 2^32 at 16 bits
    sd[i] = s[i] * d[i];
    dd[i] = d[i] * d[i];
  }
#pragma unroll
  for (int c = 0; c < kNc; ++c) {
    if constexpr (kEightBit) {
      // Both first-order sums in one word: each field < 2^16, and so is every
      // partial value of the folded sum.
      const uint32_t mn = EXACTVQ_FIR9(uint32_t, p, c);
      h[c].m = mn & 0xffff;
      h[c].n = mn >> 16;
    } else {
      h[c].m = EXACTVQ_FIR9(uint32_t, s, c);  // < 2^24
      h[c].n = EXACTVQ_FIR9(uint32_t, d, c);
    }
    h[c].xx = EXACTVQ_FIR9(HWide, ss, c);
    h[c].xy = EXACTVQ_FIR9(HWide, sd, c);
    h[c].yy = EXACTVQ_FIR9(HWide, dd, c);
  }
}

// The tile at plane column x0, row y0, row by row (each thread loads the same
// few columns of every row), each word s | d << 16, 0 outside the plane.
template <typename Sample, int kRows, int kCols>
__device__ __forceinline__ void load_tile(const Sample* __restrict__ ref,
                                          const Sample* __restrict__ dist, int x0, int y0,
                                          int width, int height, uint32_t (&tile)[kRows][kCols]) {
  constexpr int kLoads = (kCols + kThreads - 1) / kThreads;
  bool column_inside[kLoads];
#pragma unroll
  for (int l = 0; l < kLoads; ++l) {
    const int px = x0 + int(threadIdx.x) + l * kThreads;
    column_inside[l] = px >= 0 && px < width;
  }
#pragma unroll 4
  for (int ty = 0; ty < kRows; ++ty) {
    const int py = y0 + ty;
    const bool row_inside = py >= 0 && py < height;
    const size_t row_offset = row_inside ? size_t(py) * size_t(width) : 0;
#pragma unroll
    for (int l = 0; l < kLoads; ++l) {
      const int tx = int(threadIdx.x) + l * kThreads;
      if (kCols % kThreads != 0 && tx >= kCols) break;
      uint32_t v = 0;
      if (row_inside && column_inside[l]) {
        const size_t o = row_offset + size_t(x0 + tx);
        v = uint32_t(ref[o]) | (uint32_t(dist[o]) << 16);
      }
      tile[ty][tx] = v;
    }
  }
}

// kNc: output columns per thread. The term in binary64 (fp64 instructions).
template <typename Sample, int kNc, int kTileH, typename HWide, typename VWide, KernelStage kStage,
          bool kTerms>
__global__ void __launch_bounds__(kThreads)
    ssim_kernel(const Sample* __restrict__ ref, const Sample* __restrict__ dist,
                size_t frame_stride, int width, int height, TermConstants constants,
                ExactWords* __restrict__ sums, double* __restrict__ terms) {
  constexpr bool kEightBit = sizeof(Sample) == 1;
  constexpr int kTileW = kThreads * kNc;
  constexpr int kCols = kTileW + 2 * kRadius;
  constexpr int kRows = kTileH + 2 * kRadius;
  __shared__ __align__(16) uint32_t tile[kRows][kCols];

  const size_t frame = blockIdx.z;
  ref += frame * frame_stride;
  dist += frame * frame_stride;
  const int x0 = int(blockIdx.x) * kTileW - kRadius;  // plane column of tile column 0
  const int y0 = int(blockIdx.y) * kTileH - kRadius;  // plane row of tile row 0
  load_tile(ref, dist, x0, y0, width, height, tile);
  __syncthreads();

  const int first =
      int(threadIdx.x) * kNc;  // tile column under tap 0 of this thread's first column
  int xs[kNc];
  uint32_t column_weight[kNc];
#pragma unroll
  for (int c = 0; c < kNc; ++c) {
    xs[c] = x0 + kRadius + first + c;
    column_weight[c] = ssim_kept_weight(xs[c], width);
  }
  // Every output row of the tile has its whole window inside the plane: all
  // row weights are 256 (the same for the whole block).
  const bool rows_inside = y0 >= 0 && y0 + kRows <= height;
  Int128Words acc;
  Horizontal<HWide> ring[9][kNc];  // row t of the tile lives in slot t % 9

#pragma unroll 1
  for (int base = 0; base < kRows; base += 9) {
#pragma unroll
    for (int k = 0; k < 9; ++k) {
      const int t = base + k;
      if (t >= kRows) break;
      horizontal<kNc, kEightBit, HWide>(&tile[t][first], ring[k]);
      if (t < 2 * kRadius) continue;
      const int y = y0 + t - kRadius;  // the window covers tile rows t-8 .. t
      if (y >= height) continue;
      const uint32_t row_weight = rows_inside ? 256u : ssim_kept_weight(y, height);
#pragma unroll
      for (int c = 0; c < kNc; ++c) {
        if (xs[c] >= width) continue;
#define EXACTVQ_RING(f)                                                                           \
  ring[(k + 1) % 9][c].f, ring[(k + 2) % 9][c].f, ring[(k + 3) % 9][c].f, ring[(k + 4) % 9][c].f, \
      ring[(k + 5) % 9][c].f, ring[(k + 6) % 9][c].f, ring[(k + 7) % 9][c].f,                     \
      ring[(k + 8) % 9][c].f, ring[(k + 9) % 9][c].f
        const uint32_t mux = fir9<uint32_t>(EXACTVQ_RING(m));  // < 2^(b+16) <= 2^32
        const uint32_t muy = fir9<uint32_t>(EXACTVQ_RING(n));
        const VWide x2 = fir9<VWide>(EXACTVQ_RING(xx));
        const VWide xy = fir9<VWide>(EXACTVQ_RING(xy));
        const VWide y2 = fir9<VWide>(EXACTVQ_RING(yy));
#undef EXACTVQ_RING
        const uint32_t w = column_weight[c] * row_weight;
        if constexpr (kStage == KernelStage::kMoments && !kTerms) {
          acc.lo ^= uint64_t(mux) ^ (uint64_t(muy) << 7) ^ uint64_t(x2) ^ (uint64_t(xy) << 3) ^
                    (uint64_t(y2) << 5) ^ w;
          continue;
        }
        const double term = ssim_term(mux, muy, x2, xy, y2, w, constants);
        if constexpr (kTerms) {
          terms[frame * size_t(width) * size_t(height) + size_t(y) * size_t(width) +
                size_t(xs[c])] = term;
        } else if constexpr (kStage == KernelStage::kTerm) {
          acc.lo ^= uint64_t(__double_as_longlong(term));
        } else {
          const Int128Words q = to_fixed64_fp64(term);
          acc.add(q.lo, q.hi);
        }
      }
    }
  }
  if constexpr (!kTerms) add_block_sum<kThreads>(acc, sums + frame);
}

// Blocks an SM must hold for ssim_kernel_emulated, so at most 64 registers
// (32 warps an SM instead of 28), at the depths where that pays (8 and 13..16
// bits); from 9 to 12 bits the 64-bit partial sums would spill
// (docs/figures.md).
template <typename Sample, typename HWide>
constexpr int emulated_min_blocks() {
  return sizeof(Sample) == 1 || sizeof(HWide) == 8 ? 16 : 1;
}

// A window that misses softfp's fast path, kept for after the walk down the tile.
template <typename VWide>
struct DeferredWindow {
  uint32_t mux, muy, w;
  int x, y;
  VWide x2, xy, y2;
};

// The fp64-free kernel: the same tile and horizontal moments, one column a
// thread, the term on integers through softfp/ (no fp64 instruction, the same
// bits). Its vertical sums are transposed: the eight windows still open below
// the current row hold partial sums, and each new row adds its tap to each, so
// the walk down the tile stays a loop with no ring indexed by the row, and
// softfp's fast path is inline in it once. The windows that miss the fast path
// (borders, wide moments) wait in local memory and take softfp_term_beyond_fast
// (the truncated windows' fast path, or the general path) after the walk, when
// the partial sums are dead: its registers are not added to theirs.
template <typename Sample, typename HWide, typename VWide, bool kTerms>
__global__ void __launch_bounds__(kThreads, emulated_min_blocks<Sample, HWide>())
    ssim_kernel_emulated(const Sample* __restrict__ ref, const Sample* __restrict__ dist,
                         size_t frame_stride, int width, int height,
                         softfp_term_constants soft_constants, ExactWords* __restrict__ sums,
                         double* __restrict__ terms) {
  constexpr bool kEightBit = sizeof(Sample) == 1;
  constexpr int kTileH = 32;
  constexpr int kCols = kThreads + 2 * kRadius;
  constexpr int kRows = kTileH + 2 * kRadius;
  constexpr uint32_t kG[9] = {2, 9, 28, 55, 68, 55, 28, 9, 2};
  __shared__ __align__(16) uint32_t tile[kRows][kCols];

  const size_t frame = blockIdx.z;
  ref += frame * frame_stride;
  dist += frame * frame_stride;
  const int x0 = int(blockIdx.x) * kThreads - kRadius;
  const int y0 = int(blockIdx.y) * kTileH - kRadius;
  load_tile(ref, dist, x0, y0, width, height, tile);
  __syncthreads();

  const int x = x0 + kRadius + int(threadIdx.x);
  const uint32_t column_weight = ssim_kept_weight(x, width);
  const bool rows_inside = y0 >= 0 && y0 + kRows <= height;
  Int128Words acc;
  // open[j]: the window that ends j + 1 rows below the current one, its taps
  // above the current row summed (mux, muy < 2^32; VWide as in ssim_kernel).
  uint32_t open_m[8] = {}, open_n[8] = {};
  VWide open_xx[8] = {}, open_xy[8] = {}, open_yy[8] = {};
  DeferredWindow<VWide> deferred[kTileH];
  int deferred_count = 0;
  const auto take = [&](const softfp& term, int y, int x) {
    if constexpr (kTerms) {
      terms[frame * size_t(width) * size_t(height) + size_t(y) * size_t(width) + size_t(x)] =
          __longlong_as_double(static_cast<long long>(softfp_to_bits(term)));
    } else {
      const softfp_i128 q = softfp_to_fixed64(term);
      acc.add(q.lo, q.hi);
    }
  };
#pragma unroll 1
  for (int t = 0; t < kRows; ++t) {
    Horizontal<HWide> h[1];
    horizontal<1, kEightBit, HWide>(&tile[t][threadIdx.x], h);
    // The window ending at row t takes its last tap.
    const uint32_t mux = open_m[0] + kG[8] * h[0].m;
    const uint32_t muy = open_n[0] + kG[8] * h[0].n;
    const VWide x2 = open_xx[0] + VWide{kG[8]} * h[0].xx;
    const VWide xy = open_xy[0] + VWide{kG[8]} * h[0].xy;
    const VWide y2 = open_yy[0] + VWide{kG[8]} * h[0].yy;
#pragma unroll
    for (int j = 0; j < 7; ++j) {
      open_m[j] = open_m[j + 1] + kG[7 - j] * h[0].m;
      open_n[j] = open_n[j + 1] + kG[7 - j] * h[0].n;
      open_xx[j] = open_xx[j + 1] + VWide{kG[7 - j]} * h[0].xx;
      open_xy[j] = open_xy[j + 1] + VWide{kG[7 - j]} * h[0].xy;
      open_yy[j] = open_yy[j + 1] + VWide{kG[7 - j]} * h[0].yy;
    }
    open_m[7] = kG[0] * h[0].m;
    open_n[7] = kG[0] * h[0].n;
    open_xx[7] = VWide{kG[0]} * h[0].xx;
    open_xy[7] = VWide{kG[0]} * h[0].xy;
    open_yy[7] = VWide{kG[0]} * h[0].yy;
    if (t < 2 * kRadius) continue;
    const int y = y0 + t - kRadius;  // the window covers tile rows t-8 .. t
    if (y >= height || x >= width) continue;
    const uint32_t w = column_weight * (rows_inside ? 256u : ssim_kept_weight(y, height));
    const softfp_moments m{mux, muy, x2, xy, y2, w};
    if (softfp_term_fast_applies(m, soft_constants))
      take(softfp_term_fast(m, soft_constants), y, x);
    else
      deferred[deferred_count++] = DeferredWindow<VWide>{mux, muy, w, x, y, x2, xy, y2};
  }
  const auto beyond_fast = [&](const DeferredWindow<VWide>& d) {
    const softfp_moments m{d.mux, d.muy, d.x2, d.xy, d.y2, d.w};
    take(softfp_term_beyond_fast(m, soft_constants), d.y, d.x);
  };
  if (soft_constants.fast) {
    // Only the border windows wait, most of them in a tile's edge columns:
    // shared out among the block (the tile's samples are no longer needed).
    __syncthreads();
    __shared__ int shared_count;
    if (threadIdx.x == 0) shared_count = 0;
    share_out<kThreads>(
        deferred, deferred_count, reinterpret_cast<DeferredWindow<VWide>*>(&tile[0][0]),
        int(sizeof tile / sizeof(DeferredWindow<VWide>)), shared_count, beyond_fast);
  } else {  // every window waits (no fast path at this depth): each thread forms its own
#pragma unroll 1
    for (int i = 0; i < deferred_count; ++i) beyond_fast(deferred[i]);
  }
  if constexpr (!kTerms) add_block_sum<kThreads>(acc, sums + frame);
}

template <int kNc, int kTileH>
dim3 grid_of(const SsimPlanes& p) {
  if (p.frames < 1 || p.frames > 65535 || p.width < 1 || p.height < 1)
    throw DeviceError(
        fmt::format("CUDA kernel: bad launch of {} frames of {}x{}", p.frames, p.width, p.height));
  constexpr int kTileW = kThreads * kNc;
  return dim3(unsigned((p.width + kTileW - 1) / kTileW), unsigned((p.height + kTileH - 1) / kTileH),
              unsigned(p.frames));
}

template <typename Sample, int kNc, typename HWide, typename VWide, KernelStage kStage, bool kTerms,
          int kTileH = 32, bool kEmulatable = true>
void launch(const SsimPlanes& p, ExactWords* sums, double* terms, cudaStream_t stream) {
  const Sample* ref = static_cast<const Sample*>(p.ref);
  const Sample* dist = static_cast<const Sample*>(p.dist);
  const size_t stride = p.frame_stride / sizeof(Sample);
  if constexpr (kStage == KernelStage::kFull && kEmulatable && kNc == 1 && kTileH == 32) {
    if (p.emulate_fp64) {
      ssim_kernel_emulated<Sample, HWide, VWide, kTerms>
          <<<grid_of<kNc, kTileH>(p), kThreads, 0, stream>>>(ref, dist, stride, p.width, p.height,
                                                             emulated_term_constants(p.bitdepth),
                                                             sums, terms);
      check(cudaGetLastError(), "SSIM kernel launch (fp64 emulated)");
      return;
    }
  }
  ssim_kernel<Sample, kNc, kTileH, HWide, VWide, kStage, kTerms>
      <<<grid_of<kNc, kTileH>(p), kThreads, 0, stream>>>(ref, dist, stride, p.width, p.height,
                                                         term_constants(p.bitdepth), sums, terms);
  check(cudaGetLastError(), "SSIM kernel launch");
}

// Widths by bit depth (spec/ssim.md's bounds): 8-bit fits 32 bits throughout;
// up to 12 bits the horizontal second-order sums do; above, 64 bits.
template <KernelStage kStage, bool kTerms>
void dispatch(const SsimPlanes& p, ExactWords* sums, double* terms, cudaStream_t stream) {
  if (p.bitdepth == 8)
    launch<uint8_t, 1, uint32_t, uint32_t, kStage, kTerms>(p, sums, terms, stream);
  else if (p.bitdepth <= 12)
    launch<uint16_t, 1, uint32_t, uint64_t, kStage, kTerms>(p, sums, terms, stream);
  else
    launch<uint16_t, 1, uint64_t, uint64_t, kStage, kTerms>(p, sums, terms, stream);
}

}  // namespace

}  // namespace exactvq::ssim::cuda
