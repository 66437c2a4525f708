// The 8-bit exact kernel of the ssim engine, as templates: the production launch
// (ssim_kernel_u8.cu) and the benchmarks' measured variants (bench/cuda/)
// instantiate them. At 8 bits every product of two samples and every horizontal
// first-order sum fits 16 bits and every tap a byte, so the integer dot-product
// instructions filter: a block stages ten rows at a time as packed products and
// bytes in shared memory, each thread walks down one output column, dp4a and
// dp2a form the horizontal and first-order vertical sums, and the term is
// device_term.cuh's (native) or softfp's fast term (emulated). How it is laid
// out, and the shapes measured: docs/figures.md.
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/share_out.cuh"
#include "metrics/ssim/cuda/block_sum.cuh"
#include "metrics/ssim/cuda/device_term.cuh"
#include "metrics/ssim/cuda/ssim_kernel_u8.h"

namespace exactvq::ssim::cuda {

using exactvq::cuda::check;
using exactvq::cuda::share_out;

namespace {

constexpr int kRadius = EXACTVQ_SSIM_RADIUS;
constexpr int kChunk = 10;  // tile rows staged at a time: even, so a row's parity is its step's

__host__ __device__ constexpr uint32_t tap(int k) { return ssim_tap(k); }

// Taps lo and hi in bytes 0 and 1: the operand of dp2a_lo (and of dp4a over s0 s1).
__host__ __device__ constexpr uint32_t tap_pair(int lo, int hi) { return tap(lo) | tap(hi) << 8; }

// The staged words of samples kByte, kByte + 1 of the quads s4 (ref) and d4 (dist).
template <int kByte>
__device__ __forceinline__ uint4 pair_words(uint32_t s4, uint32_t d4) {
  constexpr uint32_t kFirst = 0x4440u | kByte;                    // that byte at bit 0, zeros
  constexpr uint32_t kSecond = 0x4440u | (kByte + 1);             // the next byte at bit 0
  constexpr uint32_t kSecondHigh = 0x4044u | ((kByte + 1) << 8);  // the next byte at bit 16
  const uint32_t s0 = __byte_perm(s4, 0, kFirst), s1 = __byte_perm(s4, 0, kSecond);
  const uint32_t d0 = __byte_perm(d4, 0, kFirst), d1 = __byte_perm(d4, 0, kSecond);
  const uint32_t s1_high = __byte_perm(s4, 0, kSecondHigh),
                 d1_high = __byte_perm(d4, 0, kSecondHigh);
  uint4 p;
  p.x = s1_high * s1 + s0 * s0;  // each half < 2^16: no carry between them
  p.y = s1_high * d1 + s0 * d0;
  p.z = d1_high * d1 + d0 * d0;
  p.w = __byte_perm(s4, d4, kByte == 0 ? 0x5410u : 0x7632u);  // s0 s1 d0 d1
  return p;
}

// Horizontal tap words of a column: pair i weighs taps 2i - parity, 2i + 1 - parity.
struct ColumnTaps {
  uint32_t pair[5];
};

__device__ __forceinline__ ColumnTaps column_taps(int parity) {
  ColumnTaps t;
#pragma unroll
  for (int i = 0; i < 5; ++i)
    t.pair[i] = parity ? tap_pair(2 * i - 1, 2 * i) : tap_pair(2 * i, 2 * i + 1);
  return t;
}

// One tile row's horizontal moments at one column (all < 2^24; m, n < 2^16).
struct RowMoments {
  uint32_t m, n, xx, xy, yy;
};

__device__ __forceinline__ RowMoments horizontal(const uint4* pairs, const ColumnTaps& taps) {
  RowMoments r{0, 0, 0, 0, 0};
#pragma unroll
  for (int i = 0; i < 5; ++i) {
    const uint32_t t = taps.pair[i];
    const uint4 v = pairs[i];
    r.m = __dp4a(v.w, t, r.m);
    r.n = __dp4a(v.w, t << 16, r.n);
    r.xx = __dp2a_lo(v.x, t, r.xx);
    r.xy = __dp2a_lo(v.y, t, r.xy);
    r.yy = __dp2a_lo(v.z, t, r.yy);
  }
  return r;
}

// The last rows' horizontal moments. Row t of the tile: first-order sums in
// the low (t even) or high (t odd) half of slot (t / 2) % 5, the even row's
// waiting in m_even / n_even until its pair is complete; second-order sums in
// slot t % 10.
struct Ring {
  uint32_t m_pairs[5], n_pairs[5];
  uint32_t m_even, n_even;
  uint32_t xx[10], xy[10], yy[10];
};

// sum over the window's nine rows of tap * first-order sum, ending at row
// step k of a chunk (rows t - 8 .. t, t % 10 == k), from the pair words.
// k is a constant once the caller's loop is unrolled.
__device__ __forceinline__ uint32_t vertical_first(int k, const uint32_t (&pairs)[5],
                                                   uint32_t current) {
  uint32_t sum;
  if (k % 2 == 1) {  // pairs (t-9, t-8) .. (t-1, t); t-9 has no tap
    sum = 0;
#pragma unroll
    for (int j = 0; j < 5; ++j)
      sum = __dp2a_lo(pairs[(k / 2 - j + 5) % 5], tap_pair(7 - 2 * j, 8 - 2 * j), sum);
  } else {  // pairs (t-8, t-7) .. (t-2, t-1), then row t alone
    sum = tap(8) * current;
#pragma unroll
    for (int j = 0; j < 4; ++j)
      sum = __dp2a_lo(pairs[(k / 2 - 1 - j + 10) % 5], tap_pair(6 - 2 * j, 7 - 2 * j), sum);
  }
  return sum;
}

// Folded by the taps' symmetry; every partial value is at most the total, < 2^32.
__device__ __forceinline__ uint32_t vertical_second(int k, const uint32_t (&v)[10]) {
  const auto r = [&](int i) { return v[(k - i + 10) % 10]; };  // tile row t - i
  return 2u * (r(0) + r(8)) + 9u * (r(1) + r(7)) + 28u * (r(2) + r(6)) + 55u * (r(3) + r(5)) +
         68u * r(4);
}

// The native term's fixed point from two additions: with C = 1.5 * 2^40,
// u = t + C rounds t to a multiple of 2^-12 (u stays in [2^40, 2^41), ulp 2^-12,
// as |t| <= 2^17); h = u - C and l = t - h are exact, |l| <= 2^-13; v = l + 1.5 *
// 2^-12 rounds l to a multiple of 2^-64 to nearest even (v in [2^-12, 2^-11],
// ulp 2^-64). h * 2^64 is an even integer, so round_half_even(t * 2^64) = h * 2^64
// + round_half_even(l * 2^64), and both parts are differences of bit patterns,
// linear across each range: bits(u) - bits(C) = h * 2^12 and bits(v) - bits(1.5 *
// 2^-12) = round(l * 2^64). A thread adds bits(u) and bits(v) in two 64-bit words
// and subtracts its count of terms times the constants' bits once (at most 152
// terms: both signed differences stay far inside 64 bits).
constexpr double kRoundHigh = 0x1.8p40;  // u = t + this: t to a multiple of 2^-12
constexpr double kRoundLow = 0x1.8p-12;  // v = l + this: l to a multiple of 2^-64

__device__ __forceinline__ uint64_t bits_of(double v) {
  return static_cast<uint64_t>(__double_as_longlong(v));
}

// fp64 emulated: the sum of a thread's fixed points (its 72 terms and its share
// of the block's border windows, a few hundred at most, each below 2^82 in
// magnitude: 96 bits of two's complement hold it) as three words
// and a count of negative terms. A term t = sig * 2^e with e + 64 in [0, 32)
// (|t| in [2^-12, 2^20): nearly all) is sig shifted, an exact integer; its
// negation is its complement plus one, the ones counted and added once at the end.
struct FixedSum96 {
  uint32_t w0 = 0, w1 = 0, w2 = 0;
  uint32_t negatives = 0;

  __device__ __forceinline__ void add(softfp t) {
    const uint32_t s = uint32_t(t.exp + 64);
    if (s < 32) {
      const uint32_t lo = uint32_t(t.sig), hi = uint32_t(t.sig >> 32);
      const uint32_t m = 0u - uint32_t(t.neg);
      const uint32_t x0 = (lo << s) ^ m;
      const uint32_t x1 = __funnelshift_l(lo, hi, s) ^ m;
      const uint32_t x2 = __funnelshift_l(hi, 0u, s) ^ m;
      add_words(x0, x1, x2);
      negatives += uint32_t(t.neg);
    } else {
      add(softfp_to_fixed64(t));
    }
  }

  __device__ __forceinline__ void add(softfp_i128 q) {  // |q| < 2^95
    add_words(uint32_t(q.lo), uint32_t(q.lo >> 32), uint32_t(q.hi));
  }

  // The 96-bit sum += x2:x1:x0, modulo 2^96, through the carry flag.
  __device__ __forceinline__ void add_words(uint32_t x0, uint32_t x1, uint32_t x2) {
    asm("add.cc.u32 %0, %0, %3;\n\taddc.cc.u32 %1, %1, %4;\n\taddc.u32 %2, %2, %5;"
        : "+r"(w0), "+r"(w1), "+r"(w2)
        : "r"(x0), "r"(x1), "r"(x2));
  }

  __device__ __forceinline__ Int128Words value() const {
    Int128Words v;
    v.lo = (uint64_t(w1) << 32) | w0;
    v.hi = uint64_t(int64_t(int32_t(w2)));  // sign-extended from 96 bits
    v.add(negatives, 0);
    return v;
  }
};

// The per-thread state the rows update.
struct Sums {
  uint64_t high = 0;  // sum of bits(u)
  uint64_t low = 0;   // sum of bits(v)
  FixedSum96 exact;   // fp64 emulated: the fixed points themselves
};

// fp64 emulated: a border window's moments (w below 2^16), deferred to the
// end of the tile.
struct Window8 {
  uint32_t mux, muy, x2, xy, y2, w;
};

// fp64 emulated: the interior windows (w = 2^16) of a chunk's rows, kept in
// shared memory until the rows are filtered, so that one copy of the softfp
// term, in a loop that is not unrolled, serves the ten rows (ten inlined copies
// would not fit the instruction cache or the registers beside the ring). In
// shared memory, not in registers spilled to local memory, whose stores go
// through to L2. Words of one row side by side across the block's threads (no
// bank conflicts); mux = kNoWindow marks a row without one.
template <int kThreads>
struct PendingRow {
  uint2 mu[kThreads];  // mux, muy
  uint2 xs[kThreads];  // x2, xy
  uint32_t y2[kThreads];
};
constexpr uint32_t kNoWindow = ~0u;  // mux is below 2^24

// The ten rows of one staged chunk at one column: horizontal moments into the
// ring, then (from tile row 8 on) the window's moments, term and fixed point.
template <bool kRowsInside, bool kEmulate, int kThreads>
__device__ __forceinline__ void chunk_rows(const uint4* stage_row0, int pairs_per_row,
                                           const ColumnTaps& taps, Ring& ring, Sums& sums,
                                           int first_row, int out_y0, int height,
                                           bool column_inside, uint32_t column_weight,
                                           TermConstants constants, PendingRow<kThreads>* pending,
                                           int tid, Window8* deferred, int& deferred_count) {
#pragma unroll
  for (int k = 0; k < kChunk; ++k) {
    if constexpr (kEmulate) pending[k].mu[tid].x = kNoWindow;
    const RowMoments h = horizontal(stage_row0 + k * pairs_per_row, taps);
    ring.xx[k] = h.xx;
    ring.xy[k] = h.xy;
    ring.yy[k] = h.yy;
    if (k % 2 == 0) {
      ring.m_even = h.m;
      ring.n_even = h.n;
    } else {
      ring.m_pairs[k / 2] = __byte_perm(ring.m_even, h.m, 0x5410);
      ring.n_pairs[k / 2] = __byte_perm(ring.n_even, h.n, 0x5410);
    }
    const int t = first_row + k;
    if (t < 2 * kRadius) continue;
    const int y = out_y0 + t;  // the window covers tile rows t-8 .. t
    if ((!kRowsInside && y >= height) || !column_inside) continue;  // inside: y < height
    const uint32_t mux = vertical_first(k, ring.m_pairs, h.m);      // < 2^24
    const uint32_t muy = vertical_first(k, ring.n_pairs, h.n);
    const uint32_t x2 = vertical_second(k, ring.xx);
    const uint32_t xy = vertical_second(k, ring.xy);
    const uint32_t y2 = vertical_second(k, ring.yy);
    const uint32_t w = column_weight * (kRowsInside ? 256u : ssim_kept_weight(y, height));
    if constexpr (kEmulate) {
      if (w == 65536u) {
        pending[k].mu[tid] = make_uint2(mux, muy);
        pending[k].xs[tid] = make_uint2(x2, xy);
        pending[k].y2[tid] = y2;
      } else {
        deferred[deferred_count++] = Window8{mux, muy, x2, xy, y2, w};
      }
      continue;
    }
    const double term = ssim_term(mux, muy, x2, xy, y2, w, constants);
    const double u = __dadd_rn(term, kRoundHigh);
    const double l = __dsub_rn(term, __dsub_rn(u, kRoundHigh));
    const double v = __dadd_rn(l, kRoundLow);
    sums.high += bits_of(u);
    sums.low += bits_of(v);
  }
}

// fp64 emulated: softfp's fast term with A, B, C and D rounded from a table
// of the constants' fraction addends (softfp_fast_integer_plus_addend and
// softfp_fast_signed_plus_fraction): each integer part j (at 8 bits in
// [2^32, 2^50): its high word is not 0) gives sig = j * 2^(k-1) + G(k), k =
// 53 - top(j), the entry holding G(k) and k - 1. Entries are indexed by
// top(j) - 32, the high word's leading-one position. The significands may be
// 2^53, which the products take as they are.
struct FractionTable {
  uint2 c1[32];  // A and C: c1's fraction
  uint2 c2[64];  // D and B >= 0: c2's fraction; from 32 on, B < 0: its complement
};

__device__ __forceinline__ void fill_fraction_table(FractionTable& t,
                                                    const softfp_term_constants& soft, int tid,
                                                    int threads) {
  for (int i = tid; i < 96; i += threads) {
    const int part = i / 32;  // 0: c1, 1: c2, 2: c2's complement
    const uint32_t k = 21u - uint32_t(i % 32);
    const int f = part == 0 ? soft.c1_frac_bits : soft.c2_frac_bits;
    const uint32_t frac2 = part == 0   ? soft.c1_frac2
                           : part == 1 ? soft.c2_frac2
                                       : (2u << f) - soft.c2_frac2;
    const bool used = k >= 2 && k <= 21;  // top(j) in [32, 51]
    const uint2 e{used ? softfp_fast_addend_wide(frac2, f, k) : 0u, used ? k - 1 : 0u};
    if (part == 0)
      t.c1[i] = e;
    else
      t.c2[i - 32] = e;
  }
}

// j + fraction rounded from its table entry at shared address `entry` (j's
// high word is not 0): softfp_fast_integer_plus_addend, two shifts and an add
// with carry on the integer ALU, not the multiply-add pipe (this kernel's
// busiest: docs/figures.md).
__device__ __forceinline__ softfp table_rounded(uint64_t j, uint32_t entry, uint32_t neg) {
  uint32_t addend, shift;  // G(k), k - 1
  asm("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(addend), "=r"(shift) : "r"(entry));
  softfp r = softfp_fast_integer_plus_addend(j, shift + 1, addend);
  r.neg = int32_t(neg);
  return r;
}

// The position of the leading one of j's high word (PTX bfind: one instruction).
__device__ __forceinline__ uint32_t top_of_high(uint64_t j) {
  uint32_t top;
  asm("bfind.u32 %0, %1;" : "=r"(top) : "r"(uint32_t(j >> 32)));
  return top;
}

// `table`: the shared address of the block's FractionTable.
__device__ __forceinline__ softfp term_fast8(const softfp_moments& m,
                                             const softfp_term_constants& soft, uint32_t table) {
  constexpr uint32_t kEntry = sizeof(uint2);
  const uint32_t c1 = table + uint32_t(offsetof(FractionTable, c1));
  const uint32_t c2 = table + uint32_t(offsetof(FractionTable, c2));
  const softfp_fast_integers j = softfp_fast_integers_of(m, soft);
  const uint32_t ta = top_of_high(j.ja), tc = top_of_high(j.jc), td = top_of_high(j.jd);
  const softfp a = table_rounded(j.ja, c1 + ta * kEntry, 0);
  const softfp c = table_rounded(j.jc, c1 + tc * kEntry, 0);
  const softfp d = table_rounded(j.jd, c2 + td * kEntry, 0);
  // B = 2 cov + c2 from jb = 2 cov + c2's integer part: j = jb or ~jb.
  const uint32_t sign = uint32_t(int32_t(uint32_t(j.jb >> 32)) >> 31);  // all ones when jb < 0
  const uint64_t jm = j.jb ^ ((uint64_t(sign) << 32) | sign);
  softfp b;
  if (uint32_t(jm >> 32) != 0) {
    const uint32_t tb = top_of_high(jm);
    b = table_rounded(jm, c2 + (tb | (sign & 32u)) * kEntry, sign & 1u);
  } else {
    b = softfp_fast_b(j.jb, soft);  // |B| below 2^32: rare
  }
  return softfp_fast_quotient(a, b, c, d);
}

// fp64 emulated: the chunk's interior windows through softfp's fast term, with
// no further check: at 8 bits every window with w = 2^16 meets
// softfp_term_fast_applies's bounds (mux, muy < 2^24, second moments < 2^32,
// |cov| < 2^46, D's integer part >= 0 by Cauchy-Schwarz). (The border windows
// wait in `deferred` for the end of the tile, where softfp_term_beyond_fast's
// registers do not add to the ring's, and are shared out among the block's
// threads there: share_out.cuh.) Each window is loaded while the one before it
// is formed.
template <int kThreads>
__device__ __forceinline__ void emulated_terms(const PendingRow<kThreads>* pending, int tid,
                                               Sums& sums, const softfp_term_constants& soft,
                                               uint32_t table) {
  const auto load = [&](int k) {
    const uint2 mu = pending[k].mu[tid], xs = pending[k].xs[tid];
    return Window8{mu.x, mu.y, xs.x, xs.y, pending[k].y2[tid], 65536u};
  };
  const auto one = [&](const Window8& win) {
    if (win.mux == kNoWindow) return;
    sums.exact.add(
        term_fast8(softfp_moments{win.mux, win.muy, win.x2, win.xy, win.y2, win.w}, soft, table));
  };
  // Two windows a step, each loaded one term ahead of its use (into its own
  // registers: no copies, as a one-window loop with its load ahead would need).
  static_assert(kChunk % 2 == 0);
  Window8 even = load(0);
#pragma unroll 1
  for (int k = 0; k < kChunk; k += 2) {
    const Window8 odd = load(k + 1);
    one(even);
    if (k + 2 < kChunk) even = load(k + 2);
    one(odd);
  }
}

// kAligned: width, frame stride and both pointers are multiples of 4, so a
// quad of samples at a column that is a multiple of 4 is one 32-bit load and
// lies wholly inside or wholly outside the plane. kMaxRegs: ptxas's register
// cap (255: none). kPipelined: the next chunk's loads are issued before this
// chunk is filtered (latency hidden, 6 more registers held). kEmulate: the term
// through softfp/ on integers, no fp64 instruction, same bits.
// kStages: staging buffers; with one, the next chunk is stored once every
// thread has filtered this one (a second barrier), in half the shared memory.
template <int kThreads, int kTileH, int kMaxRegs, bool kPipelined, bool kAligned, bool kEmulate,
          int kStages = 2>
__global__ void __maxnreg__(kMaxRegs)
    ssim_u8_kernel(const uint8_t* __restrict__ ref, const uint8_t* __restrict__ dist,
                   size_t frame_stride, int width, int height, TermConstants constants,
                   softfp_term_constants soft, ExactWords* __restrict__ out) {
  constexpr int kTileW = kThreads;
  constexpr int kPairs = (kTileW + 2 * kRadius) / 2;
  constexpr int kQuads = kPairs / 2;
  constexpr int kRows = kTileH + 2 * kRadius;
  static_assert(kRows % kChunk == 0 && kPairs % 2 == 0);
  constexpr int kChunks = kRows / kChunk;
  constexpr int kItems = kChunk * kQuads;  // quads staged a chunk
  constexpr int kItemsPerThread = (kItems + kThreads - 1) / kThreads;
  static_assert(kStages == 2 || (kStages == 1 && kPipelined),
                "one buffer: the next rows wait in registers");
  __shared__ uint4 stage[kStages][kChunk][kPairs];

  const size_t frame = blockIdx.z;
  ref += frame * frame_stride;
  dist += frame * frame_stride;
  const int x0 = int(blockIdx.x) * kTileW - kRadius;  // plane column of tile column 0
  const int y0 = int(blockIdx.y) * kTileH - kRadius;  // plane row of tile row 0
  const int tid = int(threadIdx.x);

  uint32_t s4[kItemsPerThread], d4[kItemsPerThread];
  const auto fetch = [&](int chunk) {
#pragma unroll
    for (int j = 0; j < kItemsPerThread; ++j) {
      const int item = tid + j * kThreads;
      s4[j] = d4[j] = 0;
      if (kItems % kThreads != 0 && item >= kItems) continue;
      const int y = y0 + chunk * kChunk + item / kQuads;
      const int px = x0 + 4 * (item % kQuads);
      if (y < 0 || y >= height) continue;
      const size_t row = size_t(y) * size_t(width);
      if constexpr (kAligned) {
        if (px < 0 || px >= width) continue;
        s4[j] = *reinterpret_cast<const uint32_t*>(ref + row + px);
        d4[j] = *reinterpret_cast<const uint32_t*>(dist + row + px);
      } else {
#pragma unroll
        for (int b = 0; b < 4; ++b)
          if (px + b >= 0 && px + b < width) {
            s4[j] |= uint32_t(ref[row + size_t(px + b)]) << (8 * b);
            d4[j] |= uint32_t(dist[row + size_t(px + b)]) << (8 * b);
          }
      }
    }
  };
  const auto store = [&](int buffer) {
#pragma unroll
    for (int j = 0; j < kItemsPerThread; ++j) {
      const int item = tid + j * kThreads;
      if (kItems % kThreads != 0 && item >= kItems) continue;
      uint4* p = &stage[buffer][item / kQuads][2 * (item % kQuads)];
      p[0] = pair_words<0>(s4[j], d4[j]);
      p[1] = pair_words<2>(s4[j], d4[j]);
    }
  };

  // This thread's output column: tile column tid, whose window starts at pair tid / 2.
  const int x = int(blockIdx.x) * kTileW + tid;
  const bool column_inside = x < width;
  const uint32_t column_weight = ssim_kept_weight(x, width);
  const ColumnTaps taps = column_taps(tid & 1);
  const bool rows_inside = y0 >= 0 && y0 + kRows <= height;  // every row weight 256
  const int out_y0 = y0 - kRadius;                           // output row of tile row t: out_y0 + t

  Ring ring;
  Sums sums;
  __shared__ PendingRow<kEmulate ? kThreads : 1>
      pending[kEmulate ? kChunk : 1];  // fp64 emulated only
  // fp64 emulated: border windows, at most one a tile row (none inside the plane).
  Window8 deferred[kEmulate ? kTileH : 1];
  int deferred_count = 0;
  fetch(0);
  store(0);
  __shared__ FractionTable fraction_table;  // fp64 emulated only
  uint32_t table = 0;  // its shared address, in a register (not recomputed in the loop)
  if constexpr (kEmulate) {
    fill_fraction_table(fraction_table, soft, tid, kThreads);
    asm volatile("mov.u32 %0, %1;"
                 : "=r"(table)
                 : "r"(uint32_t(__cvta_generic_to_shared(&fraction_table))));
  }
  __syncthreads();
  // fp64 emulated (62-row tiles, which divide neither 1080 nor 2160): the
  // chunks that hold a row of an output window, tile rows up to the last of
  // the plane's last window (y0 + t = height + 3; fewer than kChunks in the
  // bottom tiles of planes whose height the tile rows do not divide).
  const int chunks = kEmulate ? min(kChunks, (height + kRadius - 1 - y0) / kChunk + 1) : kChunks;
#pragma unroll 1
  for (int c = 0; c < chunks; ++c) {
    const bool more = c + 1 < chunks;
    if (kPipelined && more) fetch(c + 1);  // in flight while this chunk is filtered
    const uint4* row0 = &stage[c % kStages][0][tid / 2];
    const int first_row = c * kChunk;
    if (rows_inside)
      chunk_rows<true, kEmulate>(row0, kPairs, taps, ring, sums, first_row, out_y0, height,
                                 column_inside, column_weight, constants, pending, tid, deferred,
                                 deferred_count);
    else
      chunk_rows<false, kEmulate>(row0, kPairs, taps, ring, sums, first_row, out_y0, height,
                                  column_inside, column_weight, constants, pending, tid, deferred,
                                  deferred_count);
    if constexpr (kStages ==
                  1) {  // the next chunk's rows replace these once every thread has read them
      __syncthreads();
      if (more) store(0);
    }
    if constexpr (kEmulate) emulated_terms(pending, tid, sums, soft, table);
    if (kStages == 2 && more) {
      if (!kPipelined) fetch(c + 1);
      store((c + 1) & 1);
    }
    __syncthreads();
  }

  if constexpr (kEmulate) {  // the border windows (softfp_term_beyond_fast), in the staging buffers
    __shared__ int shared_count;
    if (tid == 0) shared_count = 0;
    share_out<kThreads>(
        deferred, deferred_count, reinterpret_cast<Window8*>(&stage[0][0][0]),
        int(sizeof stage / sizeof(Window8)), shared_count, [&](const Window8& win) {
          sums.exact.add(softfp_term_beyond_fast(
              softfp_moments{win.mux, win.muy, win.x2, win.xy, win.y2, win.w}, soft));
        });
  }
  // value = (sum bits(u) - n bits(C)) * 2^52 + (sum bits(v) - n bits(1.5 * 2^-12)),
  // both differences signed and exact modulo 2^64.
  const int first_out = int(blockIdx.y) * kTileH;
  const uint64_t n = column_inside ? uint64_t(max(0, min(kTileH, height - first_out))) : 0;
  const auto high = static_cast<int64_t>(sums.high - n * bits_of(kRoundHigh));
  const auto low = static_cast<int64_t>(sums.low - n * bits_of(kRoundLow));
  Int128Words acc;
  acc.lo = static_cast<uint64_t>(high) << 52;
  acc.hi = static_cast<uint64_t>(high >> 12);
  acc.add(static_cast<uint64_t>(low), low < 0 ? ~uint64_t{0} : 0);
  if constexpr (kEmulate) acc = sums.exact.value();
  add_block_sum<kThreads>(acc, out + frame);
}

// kEmulatable: the fp64-emulated kernel is built for this shape (only
// launch_exact_u8's: each emulated instantiation costs minutes of nvcc).
template <int kThreads, int kTileH, int kMaxRegs = 255, bool kPipelined = true,
          bool kEmulatable = false, int kStages = 2>
void launch(const SsimPlanes& p, ExactWords* sums, cudaStream_t stream) {
  if (!exact_u8_applies(p)) throw DeviceError("CUDA 8-bit kernel: needs 8-bit planes");
  if (p.emulate_fp64 && !kEmulatable)
    throw DeviceError("CUDA 8-bit kernel: the fp64-emulated term has launch_exact_u8's shape only");
  if (p.frames < 1 || p.frames > 65535 || p.width < 1 || p.height < 1)
    throw DeviceError(fmt::format("CUDA 8-bit kernel: bad launch of {} frames of {}x{}", p.frames,
                                  p.width, p.height));
  const dim3 grid(unsigned((p.width + kThreads - 1) / kThreads),
                  unsigned((p.height + kTileH - 1) / kTileH), unsigned(p.frames));
  const auto address = [](const void* q) { return reinterpret_cast<uintptr_t>(q); };
  const bool aligned = p.width % 4 == 0 && p.frame_stride % 4 == 0 && address(p.ref) % 4 == 0 &&
                       address(p.dist) % 4 == 0;
  const auto go = [&](auto kernel) {
    kernel<<<grid, kThreads, 0, stream>>>(
        static_cast<const uint8_t*>(p.ref), static_cast<const uint8_t*>(p.dist), p.frame_stride,
        p.width, p.height, term_constants(8), emulated_term_constants(8), sums);
  };
  if constexpr (kEmulatable) {
    if (p.emulate_fp64) {
      if (aligned)
        go(ssim_u8_kernel<kThreads, kTileH, kMaxRegs, kPipelined, true, true, kStages>);
      else
        go(ssim_u8_kernel<kThreads, kTileH, kMaxRegs, kPipelined, false, true, kStages>);
      check(cudaGetLastError(), "8-bit SSIM kernel launch (fp64 emulated)");
      return;
    }
  }
  if (aligned)
    go(ssim_u8_kernel<kThreads, kTileH, kMaxRegs, kPipelined, true, false>);
  else
    go(ssim_u8_kernel<kThreads, kTileH, kMaxRegs, kPipelined, false, false>);
  check(cudaGetLastError(), "8-bit SSIM kernel launch");
}

}  // namespace

}  // namespace exactvq::ssim::cuda
