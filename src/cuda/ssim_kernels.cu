// The fused SSIM kernel: a block loads a tile of both planes with a 4-sample
// halo into shared memory, each thread walks one column down the tile keeping
// the horizontal moments of the last nine rows in registers, forms the window
// moments, the binary64 term and (exact mode) its 2^-64 fixed point, and the
// block adds its terms in 128 bits: warp shuffles, shared memory, then two
// 64-bit integer atomics. Samples outside the plane load as 0, which leaves
// their taps out of every moment exactly as the spec's truncated windows do.
#include "cuda/ssim_kernels.h"

#include <fmt/format.h>

#include "cuda/cuda_check.h"
#include "cuda/device_term.cuh"
#include "softfp/softfp.h"
#include "ssim/term.h"

namespace exactvq::cuda {

namespace {

constexpr int kTileW = 64;  // threads per block, one output column each
constexpr int kTileH = 32;  // output rows per block
constexpr int kRadius = 4;
constexpr int kRows = kTileH + 2 * kRadius;
constexpr int kCols = kTileW + 2 * kRadius;

__constant__ uint32_t kTap[9] = {2, 9, 28, 55, 68, 55, 28, 9, 2};

// ssim/taps.h's kept_weight: the taps of a window at `pos` inside [0, size).
__device__ __forceinline__ uint32_t kept_weight(int pos, int size) {
  if (pos >= kRadius && pos + kRadius < size) return 256;
  uint32_t w = 0;
#pragma unroll
  for (int k = 0; k < 9; ++k) {
    const int i = pos - kRadius + k;
    if (i >= 0 && i < size) w += kTap[k];
  }
  return w;
}

// One row's horizontal moments at one column. HWide holds the second-order
// sums: < 2^(2b+8), so 32 bits up to 12-bit samples.
template <typename HWide>
struct Horizontal {
  uint32_t m, n;
  HWide xx, xy, yy;
};

// `row` points at the tile column under tap 0; each word is s | d << 16.
template <bool kEightBit, typename HWide>
__device__ __forceinline__ Horizontal<HWide> horizontal(const uint32_t* row) {
  constexpr uint32_t g[9] = {2, 9, 28, 55, 68, 55, 28, 9, 2};
  Horizontal<HWide> h{0, 0, 0, 0, 0};
  uint32_t mn = 0;  // 8-bit: both first-order sums in one word (each < 2^16)
#pragma unroll
  for (int k = 0; k < 9; ++k) {
    const uint32_t p = row[k];
    const uint32_t s = p & 0xffff, d = p >> 16;
    if constexpr (kEightBit) {
      mn += g[k] * p;
    } else {
      h.m += g[k] * s;
      h.n += g[k] * d;
    }
    h.xx += HWide{g[k]} * HWide{s * s};  // s*s < 2^32 at 16 bits
    h.xy += HWide{g[k]} * HWide{s * d};
    h.yy += HWide{g[k]} * HWide{d * d};
  }
  if constexpr (kEightBit) {
    h.m = mn & 0xffff;
    h.n = mn >> 16;
  }
  return h;
}

// Adds every thread's 128-bit sum into *sum: warp shuffles, shared memory, then
// two 64-bit integer atomics (integer addition, so the order does not matter).
__device__ __forceinline__ void add_block_sum(Int128Words acc, ExactWords* sum) {
  for (int offset = 16; offset > 0; offset /= 2) {
    const uint64_t lo = __shfl_down_sync(0xffffffffu, acc.lo, offset);
    const uint64_t hi = __shfl_down_sync(0xffffffffu, acc.hi, offset);
    acc.add(lo, hi);
  }
  __shared__ Int128Words warp_sums[kTileW / 32];
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x != 0) return;
  Int128Words block = warp_sums[0];
  for (int i = 1; i < kTileW / 32; ++i) block.add(warp_sums[i].lo, warp_sums[i].hi);
  auto* lo = reinterpret_cast<unsigned long long*>(&sum->lo);
  auto* hi = reinterpret_cast<unsigned long long*>(&sum->hi);
  const unsigned long long old = atomicAdd(lo, block.lo);
  const unsigned long long carry = old + block.lo < old ? 1 : 0;
  atomicAdd(hi, block.hi + carry);
}

// The emulated term, kept out of line: the row loop is unrolled nine times and
// softfp's division is long, so inlining would multiply compile time and code
// size for no speed. Returns the term's bits (`bits`) or its 2^-64 fixed point.
__device__ __noinline__ softfp_i128 emulated_term(uint64_t mux, uint64_t muy, uint64_t x2,
                                                  uint64_t xy, uint64_t y2, uint32_t w,
                                                  softfp_term_constants k, bool bits) {
  const softfp_moments m{mux, muy, x2, xy, y2, w};
  const softfp t = softfp_term(m, k);
  if (bits) return softfp_i128{softfp_to_bits(t), 0};
  return softfp_to_fixed64(t);
}

// kEmulate: the term on integers through softfp/ (no fp64 instruction), same bits.
template <typename Sample, typename HWide, typename VWide, KernelStage kStage, bool kTerms,
          bool kEmulate>
__global__ void __launch_bounds__(kTileW)
    ssim_kernel(const Sample* __restrict__ ref, const Sample* __restrict__ dist,
                size_t frame_stride, int width, int height, TermConstants constants,
                softfp_term_constants soft_constants, ExactWords* __restrict__ sums,
                double* __restrict__ terms) {
  constexpr bool kEightBit = sizeof(Sample) == 1;
  __shared__ uint32_t tile[kRows][kCols];

  const size_t frame = blockIdx.z;
  ref += frame * frame_stride;
  dist += frame * frame_stride;
  const int x0 = int(blockIdx.x) * kTileW - kRadius;  // plane column of tile column 0
  const int y0 = int(blockIdx.y) * kTileH - kRadius;  // plane row of tile row 0
  for (int i = int(threadIdx.x); i < kRows * kCols; i += kTileW) {
    const int ty = i / kCols, tx = i % kCols;
    const int px = x0 + tx, py = y0 + ty;
    uint32_t v = 0;
    if (px >= 0 && px < width && py >= 0 && py < height) {
      const size_t o = size_t(py) * size_t(width) + size_t(px);
      v = uint32_t(ref[o]) | (uint32_t(dist[o]) << 16);
    }
    tile[ty][tx] = v;
  }
  __syncthreads();

  const int column = int(threadIdx.x);
  const int x = x0 + kRadius + column;
  const uint32_t column_weight = kept_weight(x, width);
  Int128Words acc;
  Horizontal<HWide> ring[9];  // row t of the tile lives in slot t % 9

#pragma unroll 1
  for (int base = 0; base < kRows; base += 9) {
#pragma unroll
    for (int k = 0; k < 9; ++k) {
      const int t = base + k;
      if (t >= kRows) break;
      ring[k] = horizontal<kEightBit, HWide>(&tile[t][column]);
      if (t < 2 * kRadius) continue;
      const int y = y0 + t - kRadius;  // the window covers tile rows t-8 .. t
      if (x >= width || y >= height) continue;
      constexpr uint32_t g[9] = {2, 9, 28, 55, 68, 55, 28, 9, 2};
      uint32_t mux = 0, muy = 0;  // < 2^(b+16) <= 2^32
      VWide x2 = 0, xy = 0, y2 = 0;
#pragma unroll
      for (int j = 0; j < 9; ++j) {
        const Horizontal<HWide>& h = ring[(k + 1 + j) % 9];
        mux += g[j] * h.m;
        muy += g[j] * h.n;
        x2 += VWide{g[j]} * VWide(h.xx);
        xy += VWide{g[j]} * VWide(h.xy);
        y2 += VWide{g[j]} * VWide(h.yy);
      }
      const uint32_t w = column_weight * kept_weight(y, height);
      if constexpr (kStage == KernelStage::kMoments && !kTerms) {
        acc.lo ^= uint64_t(mux) ^ (uint64_t(muy) << 7) ^ uint64_t(x2) ^ (uint64_t(xy) << 3) ^
                  (uint64_t(y2) << 5) ^ w;
        continue;
      }
      if constexpr (kEmulate) {
        const softfp_i128 q = emulated_term(mux, muy, x2, xy, y2, w, soft_constants, kTerms);
        if constexpr (kTerms)
          terms[frame * size_t(width) * size_t(height) + size_t(y) * size_t(width) + size_t(x)] =
              __longlong_as_double(static_cast<long long>(q.lo));
        else
          acc.add(q.lo, q.hi);
        continue;
      }
      const double term = ssim_term(mux, muy, x2, xy, y2, w, constants);
      if constexpr (kTerms) {
        terms[frame * size_t(width) * size_t(height) + size_t(y) * size_t(width) + size_t(x)] =
            term;
      } else if constexpr (kStage == KernelStage::kTerm) {
        acc.lo ^= uint64_t(__double_as_longlong(term));
      } else {
        const Int128Words q = to_fixed64(term);
        acc.add(q.lo, q.hi);
      }
    }
  }
  if constexpr (!kTerms) add_block_sum(acc, sums + frame);
}

TermConstants term_constants(int bitdepth) {
  const ssim::TermConstants k = ssim::term_constants(bitdepth);  // the CPU's, on the host
  return {k.mm_k1, k.mm_k2};
}

dim3 grid_of(const DevicePlanes& p) {
  if (p.frames < 1 || p.frames > 65535 || p.width < 1 || p.height < 1)
    throw DeviceError(fmt::format("CUDA kernel: bad launch of {} frames of {}x{}", p.frames,
                                  p.width, p.height));
  return dim3(unsigned((p.width + kTileW - 1) / kTileW), unsigned((p.height + kTileH - 1) / kTileH),
              unsigned(p.frames));
}

template <typename Sample, typename HWide, typename VWide, KernelStage kStage, bool kTerms>
void launch(const DevicePlanes& p, ExactWords* sums, double* terms, cudaStream_t stream) {
  const auto args = [&](auto kernel) {
    kernel<<<grid_of(p), kTileW, 0, stream>>>(
        static_cast<const Sample*>(p.ref), static_cast<const Sample*>(p.dist),
        p.frame_stride / sizeof(Sample), p.width, p.height, term_constants(p.bitdepth),
        softfp_make_term_constants(p.bitdepth), sums, terms);
  };
  if constexpr (kStage == KernelStage::kFull) {
    if (p.emulate_fp64) {
      args(ssim_kernel<Sample, HWide, VWide, kStage, kTerms, true>);
      check(cudaGetLastError(), "SSIM kernel launch (fp64 emulated)");
      return;
    }
  }
  args(ssim_kernel<Sample, HWide, VWide, kStage, kTerms, false>);
  check(cudaGetLastError(), "SSIM kernel launch");
}

// Widths by bit depth (spec/ssim.md's bounds): 8-bit fits 32 bits throughout;
// up to 12 bits the horizontal second-order sums do; above, 64 bits.
template <KernelStage kStage, bool kTerms>
void dispatch(const DevicePlanes& p, ExactWords* sums, double* terms, cudaStream_t stream) {
  if (p.bitdepth == 8)
    launch<uint8_t, uint32_t, uint32_t, kStage, kTerms>(p, sums, terms, stream);
  else if (p.bitdepth <= 12)
    launch<uint16_t, uint32_t, uint64_t, kStage, kTerms>(p, sums, terms, stream);
  else
    launch<uint16_t, uint64_t, uint64_t, kStage, kTerms>(p, sums, terms, stream);
}

}  // namespace

void launch_exact(const DevicePlanes& planes, ExactWords* sums, cudaStream_t stream,
                  KernelStage stage) {
  switch (stage) {
    case KernelStage::kFull: return dispatch<KernelStage::kFull, false>(planes, sums, nullptr, stream);
    case KernelStage::kMoments:
      if (planes.bitdepth != 8 || planes.emulate_fp64) break;
      return launch<uint8_t, uint32_t, uint32_t, KernelStage::kMoments, false>(planes, sums,
                                                                             nullptr, stream);
    case KernelStage::kTerm:
      if (planes.bitdepth != 8 || planes.emulate_fp64) break;
      return launch<uint8_t, uint32_t, uint32_t, KernelStage::kTerm, false>(planes, sums,
                                                                          nullptr, stream);
  }
  throw DeviceError("CUDA kernel: stage timing variants exist for 8-bit planes and native fp64 only");
}

void launch_terms(const DevicePlanes& planes, double* terms, cudaStream_t stream) {
  dispatch<KernelStage::kFull, true>(planes, nullptr, terms, stream);
}

}  // namespace exactvq::cuda
