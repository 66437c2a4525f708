// vif's level statistic and halving on the GPU, from the shared definition
// (metrics/vif/definition.h): integers throughout but for the binary64 gain
// steps, native (native_statistic.h, -fmad=false) or emulated on integers
// (softfp_statistic.h, the OpenCL kernels' form), so every pixel's terms
// equal the CPU reference's; the sums are integers, so the blocks' atomics add
// them in any order to the same value.
//
// The statistic: a block of 32 x 16 output pixels reads its samples and the
// filter's reach around them into shared memory once (rows and columns outside
// the level at their mirrors, as mirroring the filtered lines does), runs the
// vertical pass over its columns and the reach either side from there, then
// the horizontal pass and the pixel terms. Where the host proves the level's
// vertical moments below 2^32 (8-bit samples) that pass adds in 32-bit
// integers; symmetric taps are taken a pair of equal ones at a time. The same
// integers as the definition's sums in tap order: no 64-bit sum wraps and the
// 32-bit ones wrap alike.
#include "metrics/vif/cuda/vif_kernels.h"

#include <cstring>
#include <type_traits>

#include "backends/cuda/cuda_check.h"
#include "core/error.h"
#include "metrics/vif/definition.h"
#include "metrics/vif/native_statistic.h"
#include "metrics/vif/softfp_statistic.h"

namespace exactvq::vif::cuda {

using exactvq::cuda::check;

namespace {

constexpr int kTileW = 32, kTileH = 8;
constexpr int kThreads = kTileW * kTileH;

// Rounding right shift of the filter passes; n = 0 leaves the value.
__device__ __forceinline__ uint32_t round32(uint32_t v, int n) {
  return n > 0 ? (v + (1u << (n - 1))) >> n : v;
}
__device__ __forceinline__ uint64_t round64(uint64_t v, int n) {
  return n > 0 ? (v + (uint64_t{1} << (n - 1))) >> n : v;
}

// The block's four sums added into `out` (one atomic each).
template <int kBlockThreads>
__device__ void add_block_sums(VifSums s, unsigned long long* out) {
  unsigned long long v[4] = {(unsigned long long)s.num_log, (unsigned long long)s.den_log,
                             (unsigned long long)s.num_non_log, (unsigned long long)s.den_non_log};
  __shared__ unsigned long long warps[4][kBlockThreads / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int i = 0; i < 4; ++i) {
    for (int offset = 16; offset > 0; offset /= 2)
      v[i] += __shfl_down_sync(0xffffffffu, v[i], offset);
    if (lane == 0) warps[i][warp] = v[i];
  }
  __syncthreads();
  if (threadIdx.x >= 4) return;
  unsigned long long total = 0;
  for (int w = 0; w < kBlockThreads / 32; ++w) total += warps[threadIdx.x][w];
  atomicAdd(&out[threadIdx.x], total);
}

// A pixel's terms with the gain steps in the number type of eps and gain_limit:
// double (native fp64) or softfp (emulated).
__device__ __forceinline__ void add_pixel_terms(VifSigmas s, double eps, double gain_limit,
                                                const unsigned short* table, VifSums* acc) {
  vif::add_pixel_terms(s, eps, gain_limit, table, acc);
}
__device__ __forceinline__ void add_pixel_terms(VifSigmas s, softfp eps, softfp gain_limit,
                                                const unsigned short* table, VifSums* acc) {
  vif_softfp_add_pixel_terms(s, eps, gain_limit, table, acc);
}

constexpr int kStatH = 16;
constexpr int kStatThreads = kTileW * kStatH;

// How statistic_kernel adds, always by pairs of equal taps (every level's taps
// are symmetric: t * (a + b) for t * a + t * b, the same integers as no 64-bit
// sum wraps and the 32-bit means wrap alike): the vertical moments in 64 bits,
// or in 32 bits where the host proves them below 2^32.
enum class Sums { kPaired, kPairedNarrow };

template <typename Sample, int R, typename Number, Sums kSums>
__global__ void __launch_bounds__(kStatThreads)
    statistic_kernel(const Sample* __restrict__ ref, const Sample* __restrict__ dist,
                     size_t frame_stride, int width, int height, VifFilter taps, int mean_shift,
                     int square_shift, Number eps, Number gain_limit,
                     const unsigned short* __restrict__ table,
                     unsigned long long* __restrict__ sums, size_t sums_stride) {
  constexpr int kCols = kTileW + 2 * R, kRows = kStatH + 2 * R;
  __shared__ Sample s_ref[kRows][kCols], s_dist[kRows][kCols];
  __shared__ uint32_t s_mu1[kStatH][kCols], s_mu2[kStatH][kCols];
  __shared__ uint32_t s_xx[kStatH][kCols], s_yy[kStatH][kCols], s_xy[kStatH][kCols];
  const size_t frame = blockIdx.z;
  ref += frame * frame_stride;
  dist += frame * frame_stride;
  const int x0 = int(blockIdx.x) * kTileW, y0 = int(blockIdx.y) * kStatH;

  for (int i = int(threadIdx.x); i < kRows * kCols; i += kStatThreads) {
    const int r = i / kCols, c = i % kCols;
    const size_t at = size_t(vif_mirror(y0 - R + r, height)) * size_t(width) +
                      size_t(vif_mirror(x0 - R + c, width));
    s_ref[r][c] = ref[at];
    s_dist[r][c] = dist[at];
  }
  __syncthreads();

  for (int i = int(threadIdx.x); i < kCols * kStatH; i += kStatThreads) {
    const int r = i / kCols, c = i % kCols;
    if (y0 + r >= height) continue;
    uint32_t mu1, mu2;
    uint64_t xx, yy, xy;
    if constexpr (kSums == Sums::kPairedNarrow) {
      const uint32_t t = taps.taps[R], s = s_ref[r + R][c], d = s_dist[r + R][c];
      mu1 = t * s;
      mu2 = t * d;
      uint32_t xx32 = t * (s * s), yy32 = t * (d * d), xy32 = t * (s * d);
#pragma unroll
      for (int k = 0; k < R; ++k) {
        const uint32_t tk = taps.taps[k];
        const uint32_t s0 = s_ref[r + k][c], s1 = s_ref[r + 2 * R - k][c];
        const uint32_t d0 = s_dist[r + k][c], d1 = s_dist[r + 2 * R - k][c];
        mu1 += tk * (s0 + s1);
        mu2 += tk * (d0 + d1);
        xx32 += tk * (s0 * s0 + s1 * s1);
        yy32 += tk * (d0 * d0 + d1 * d1);
        xy32 += tk * (s0 * d0 + s1 * d1);
      }
      xx = xx32;
      yy = yy32;
      xy = xy32;
    } else {
      const uint32_t t = taps.taps[R], s = s_ref[r + R][c], d = s_dist[r + R][c];
      mu1 = t * s;
      mu2 = t * d;
      xx = uint64_t(t) * (uint64_t(s) * s);
      yy = uint64_t(t) * (uint64_t(d) * d);
      xy = uint64_t(t) * (uint64_t(s) * d);
#pragma unroll
      for (int k = 0; k < R; ++k) {
        const uint32_t tk = taps.taps[k];
        const uint64_t s0 = s_ref[r + k][c], s1 = s_ref[r + 2 * R - k][c];
        const uint64_t d0 = s_dist[r + k][c], d1 = s_dist[r + 2 * R - k][c];
        mu1 += tk * uint32_t(s0 + s1);
        mu2 += tk * uint32_t(d0 + d1);
        xx += tk * (s0 * s0 + s1 * s1);
        yy += tk * (d0 * d0 + d1 * d1);
        xy += tk * (s0 * d0 + s1 * d1);
      }
    }
    s_mu1[r][c] = uint16_t(round32(mu1, mean_shift));
    s_mu2[r][c] = uint16_t(round32(mu2, mean_shift));
    s_xx[r][c] = uint32_t(round64(xx, square_shift));
    s_yy[r][c] = uint32_t(round64(yy, square_shift));
    s_xy[r][c] = uint32_t(round64(xy, square_shift));
  }
  __syncthreads();

  VifSums acc = {0, 0, 0, 0};
  const int tx = int(threadIdx.x) % kTileW, ty = int(threadIdx.x) / kTileW;
  if (x0 + tx < width && y0 + ty < height) {
    const uint32_t t = taps.taps[R];
    uint32_t mu1 = t * s_mu1[ty][tx + R];
    uint32_t mu2 = t * s_mu2[ty][tx + R];
    uint64_t xx = t * uint64_t(s_xx[ty][tx + R]);
    uint64_t yy = t * uint64_t(s_yy[ty][tx + R]);
    uint64_t xy = t * uint64_t(s_xy[ty][tx + R]);
#pragma unroll
    for (int k = 0; k < R; ++k) {
      const uint32_t tk = taps.taps[k];
      const int a = tx + k, b = tx + 2 * R - k;
      mu1 += tk * (s_mu1[ty][a] + s_mu1[ty][b]);
      mu2 += tk * (s_mu2[ty][a] + s_mu2[ty][b]);
      xx += tk * (uint64_t(s_xx[ty][a]) + s_xx[ty][b]);
      yy += tk * (uint64_t(s_yy[ty][a]) + s_yy[ty][b]);
      xy += tk * (uint64_t(s_xy[ty][a]) + s_xy[ty][b]);
    }
    add_pixel_terms(vif_sigmas(mu1, mu2, xx, yy, xy), eps, gain_limit, table, &acc);
  }
  add_block_sums<kStatThreads>(acc, sums + frame * sums_stride);
}

// Whether the taps are equal in pairs about the middle (statistic_kernel's
// paired sums: every level's are), and whether with samples up to max_sample every vertical
// moment plus its rounding stays below 2^32 (its narrow ones: no partial sum,
// each at most the whole, wraps).
bool taps_symmetric(const VifFilter& f) {
  if (f.count % 2 == 0) return false;
  for (int k = 0; k < f.count; ++k)
    if (f.taps[k] != f.taps[f.count - 1 - k]) return false;
  return true;
}
bool vertical_moments_fit_32(const VifFilter& f, uint64_t max_sample, int square_shift) {
  uint64_t total = 0;
  for (int k = 0; k < f.count; ++k) total += f.taps[k];
  const uint64_t half = square_shift > 0 ? uint64_t{1} << (square_shift - 1) : 0;
  return max_sample * max_sample * total + half < (uint64_t{1} << 32);
}

// One output sample of the halving: the vertical blur at row 2i of each
// column the horizontal blur reads, then the horizontal blur at column 2j.
template <typename Sample, int R>
__global__ void __launch_bounds__(kThreads)
    halve_kernel(const Sample* __restrict__ ref, const Sample* __restrict__ dist,
                 size_t frame_stride, int width, int height, VifFilter taps, int shift,
                 uint16_t* __restrict__ ref_out, uint16_t* __restrict__ dist_out,
                 size_t out_stride) {
  const int w2 = width / 2, h2 = height / 2;
  const int j = int(blockIdx.x) * kTileW + int(threadIdx.x) % kTileW;
  const int i = int(blockIdx.y) * kTileH + int(threadIdx.x) / kTileW;
  if (j >= w2 || i >= h2) return;
  const size_t frame = blockIdx.z;
  ref += frame * frame_stride;
  dist += frame * frame_stride;
  size_t rows[2 * R + 1];
#pragma unroll
  for (int k = 0; k <= 2 * R; ++k)
    rows[k] = size_t(vif_mirror(2 * i - R + k, height)) * size_t(width);
  uint32_t hr = 0, hd = 0;
#pragma unroll
  for (int kx = 0; kx <= 2 * R; ++kx) {
    const size_t x = size_t(vif_mirror(2 * j - R + kx, width));
    uint32_t vr = 0, vd = 0;
#pragma unroll
    for (int ky = 0; ky <= 2 * R; ++ky) {
      vr += taps.taps[ky] * uint32_t(ref[rows[ky] + x]);
      vd += taps.taps[ky] * uint32_t(dist[rows[ky] + x]);
    }
    hr += taps.taps[kx] * uint32_t(uint16_t(round32(vr, shift)));
    hd += taps.taps[kx] * uint32_t(uint16_t(round32(vd, shift)));
  }
  const size_t out = frame * (out_stride / 2) + size_t(i) * size_t(w2) + size_t(j);
  ref_out[out] = uint16_t((hr + 32768u) >> 16);
  dist_out[out] = uint16_t((hd + 32768u) >> 16);
}

dim3 grid_of(int width, int height, int frames, int tile_h = kTileH) {
  return dim3(unsigned((width + kTileW - 1) / kTileW), unsigned((height + tile_h - 1) / tile_h),
              unsigned(frames));
}

template <typename Sample, typename Number>
void statistic_for(const VifLevelPlanes& p, const VifFilter& taps, int mean_shift, int square_shift,
                   Number eps, Number gain_limit, const uint16_t* table, unsigned long long* sums,
                   size_t sums_stride, cudaStream_t stream) {
  const auto* ref = static_cast<const Sample*>(p.ref);
  const auto* dist = static_cast<const Sample*>(p.dist);
  const size_t stride = p.frame_stride / sizeof(Sample);
  const dim3 grid = grid_of(p.width, p.height, p.frames, kStatH);
  const auto* t = reinterpret_cast<const unsigned short*>(table);
#define EXACTVQ_VIF_STATISTIC_AS(R, SUMS)                                                         \
  statistic_kernel<Sample, R, Number, SUMS>                                                       \
      <<<grid, kStatThreads, 0, stream>>>(ref, dist, stride, p.width, p.height, taps, mean_shift, \
                                          square_shift, eps, gain_limit, t, sums, sums_stride)
#define EXACTVQ_VIF_STATISTIC(R)                            \
  if constexpr (std::is_same_v<Sample, uint8_t>)            \
    if (vertical_moments_fit_32(taps, 255, square_shift)) { \
      EXACTVQ_VIF_STATISTIC_AS(R, Sums::kPairedNarrow);     \
      break;                                                \
    }                                                       \
  EXACTVQ_VIF_STATISTIC_AS(R, Sums::kPaired)
  if (!taps_symmetric(taps))
    throw DeviceError("vif statistic kernel: its filter's taps are not symmetric");
  switch (taps.count) {
    case 17:
      EXACTVQ_VIF_STATISTIC(8);
      break;
    case 9:
      EXACTVQ_VIF_STATISTIC(4);
      break;
    case 5:
      EXACTVQ_VIF_STATISTIC(2);
      break;
    default:
      EXACTVQ_VIF_STATISTIC(1);
      break;
  }
#undef EXACTVQ_VIF_STATISTIC_AS
#undef EXACTVQ_VIF_STATISTIC
}

template <typename Sample>
void halve_for(const VifLevelPlanes& p, const VifFilter& taps, int shift, uint16_t* ref_out,
               uint16_t* dist_out, size_t out_stride, cudaStream_t stream) {
  const auto* ref = static_cast<const Sample*>(p.ref);
  const auto* dist = static_cast<const Sample*>(p.dist);
  const size_t stride = p.frame_stride / sizeof(Sample);
  const dim3 grid = grid_of(p.width / 2, p.height / 2, p.frames);
#define EXACTVQ_VIF_HALVE(R)                              \
  halve_kernel<Sample, R><<<grid, kThreads, 0, stream>>>( \
      ref, dist, stride, p.width, p.height, taps, shift, ref_out, dist_out, out_stride)
  switch (taps.count) {
    case 9:
      EXACTVQ_VIF_HALVE(4);
      break;
    case 5:
      EXACTVQ_VIF_HALVE(2);
      break;
    default:
      EXACTVQ_VIF_HALVE(1);
      break;
  }
#undef EXACTVQ_VIF_HALVE
}

template <typename Number>
void statistic_by_depth(const VifLevelPlanes& p, const VifFilter& filter, int mean_shift,
                        int square_shift, Number eps, Number gain_limit, const uint16_t* table,
                        unsigned long long* out, size_t sums_stride, cudaStream_t stream) {
  if (p.bytes)
    statistic_for<uint8_t>(p, filter, mean_shift, square_shift, eps, gain_limit, table, out,
                           sums_stride, stream);
  else
    statistic_for<uint16_t>(p, filter, mean_shift, square_shift, eps, gain_limit, table, out,
                            sums_stride, stream);
}

}  // namespace

void launch_vif_statistic(const VifLevelPlanes& p, const VifFilter& filter, int mean_shift,
                          int square_shift, double gain_limit, const uint16_t* table,
                          uint64_t* sums, size_t sums_stride, cudaStream_t stream) {
  auto* out = reinterpret_cast<unsigned long long*>(sums);
  const uint64_t eps_bits = EXACTVQ_VIF_EPS_BITS;
  if (p.emulate_fp64) {
    uint64_t limit_bits;
    static_assert(sizeof gain_limit == sizeof limit_bits);
    memcpy(&limit_bits, &gain_limit, sizeof limit_bits);
    statistic_by_depth(p, filter, mean_shift, square_shift, softfp_from_bits(eps_bits),
                       softfp_from_bits(limit_bits), table, out, sums_stride, stream);
  } else {
    double eps;
    static_assert(sizeof eps == sizeof eps_bits);
    memcpy(&eps, &eps_bits, sizeof eps);
    statistic_by_depth(p, filter, mean_shift, square_shift, eps, gain_limit, table, out,
                       sums_stride, stream);
  }
  check(cudaGetLastError(), p.emulate_fp64 ? "vif statistic kernel launch (fp64 emulated)"
                                           : "vif statistic kernel launch");
}

void launch_vif_halve(const VifLevelPlanes& p, const VifFilter& next, int shift, uint16_t* ref_out,
                      uint16_t* dist_out, size_t out_stride, cudaStream_t stream) {
  if (p.bytes)
    halve_for<uint8_t>(p, next, shift, ref_out, dist_out, out_stride, stream);
  else
    halve_for<uint16_t>(p, next, shift, ref_out, dist_out, out_stride, stream);
  check(cudaGetLastError(), "vif halving kernel launch");
}

}  // namespace exactvq::vif::cuda
