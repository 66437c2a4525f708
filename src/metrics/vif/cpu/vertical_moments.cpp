// The vertical pass of vif's statistic (the twin of vif::vertical_moments) as
// a Highway kernel: means in uint32 lanes (the reference's uint32 sums, wrap
// included); second moments in uint32 lanes when no sum can reach 2^32 and
// none is rounded (8-bit samples at level 0), else in uint64 lanes, the even
// and odd columns apart (MulEven gives the exact 64-bit products). On x86 the
// uint32 case runs in int16 lanes instead, two rows a multiply-add
// (Moments16), and so do 16-bit samples under taps below 2^15 (level 0 above
// 8 bits, levels 1 and 2), each product split into 16-bit halves whose sums
// fit 32 bits (MomentHalves16; docs/spec/vif.md proves the bounds). Their
// two-row forms (Moments16Pair, MomentHalves16Pair) make two output rows from
// one pass over the rows, sharing each pair of rows' operands.
#include "metrics/vif/cpu/vif_simd.h"
#include "metrics/vif/cpu/paired_lines.h"

#include <utility>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/vif/cpu/vertical_moments.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "metrics/vif/cpu/row_pairs-inl.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::vif::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR
// One-lane vectors cannot split lanes: the reference is the kernel.
void VerticalMoments(std::span<const uint8_t* const> ref_rows,
                     std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                     std::span<const uint16_t> taps, Rounding mean, Rounding square,
                     MomentLines& out) {
  vif::vertical_moments(ref_rows, dist_rows, sample, width, taps, mean, square, out);
}
void VerticalMomentsPair(std::span<const uint8_t* const> ref_rows,
                         std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                         std::span<const uint16_t> taps, Rounding mean, Rounding square,
                         MomentLines& out_a, MomentLines& out_b) {
  const size_t n = taps.size();
  vif::vertical_moments(ref_rows.first(n), dist_rows.first(n), sample, width, taps, mean, square,
                        out_a);
  vif::vertical_moments(ref_rows.subspan(1, n), dist_rows.subspan(1, n), sample, width, taps, mean,
                        square, out_b);
}
int VerticalMomentHalves(std::span<const uint8_t* const>, std::span<const uint8_t* const>,
                         SampleWidth, int, std::span<const uint16_t>, Rounding, Rounding,
                         PairedLines&) {
  return 0;
}
int VerticalMomentHalvesPair(std::span<const uint8_t* const>, std::span<const uint8_t* const>,
                             SampleWidth, int, std::span<const uint16_t>, Rounding, Rounding,
                             PairedLines&, PairedLines&) {
  return 0;
}
#else

using D32 = hn::ScalableTag<uint32_t>;
using D64 = hn::Repartition<uint64_t, D32>;
using V32 = hn::Vec<D32>;
using V64 = hn::Vec<D64>;

// Lanes(D32) samples of a level row from column x (16 bits: little-endian).
template <typename Sample>
HWY_INLINE V32 LoadSamples(D32 d, const uint8_t* row, int x) {
  const hn::Rebind<Sample, D32> ds;
  return hn::PromoteTo(d, hn::LoadU(ds, reinterpret_cast<const Sample*>(row) + x));
}

// The odd uint32 lanes moved into the even ones, where MulEven reads them.
HWY_INLINE V32 OddLanes(V32 v) {
  const D32 d;
  const D64 d64;
  return hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(d64, v)));
}

// uint16_t((sum + add) >> shift) in uint32 arithmetic.
HWY_INLINE V32 RoundMean(V32 sum, Rounding r) {
  const D32 d;
  return hn::And(hn::ShiftRightSame(hn::Add(sum, hn::Set(d, r.add)), r.shift), hn::Set(d, 0xFFFFu));
}

// uint32_t((sum + add) >> shift) of the even and the odd columns' uint64
// sums, back in column order.
HWY_INLINE V32 RoundSquares(V64 even, V64 odd, Rounding r) {
  const D32 d;
  const D64 d64;
  const V64 add = hn::Set(d64, uint64_t{r.add});
  even = hn::ShiftRightSame(hn::Add(even, add), r.shift);
  odd = hn::ShiftRightSame(hn::Add(odd, add), r.shift);
  return hn::OddEven(hn::BitCast(d, hn::ShiftLeft<32>(odd)), hn::BitCast(d, even));
}

// Moments in uint32 lanes: the caller has checked that sum(taps) * max^2 < 2^32
// and that the moments are not rounded (square.add == 0), so each uint32 sum
// is the reference's uint64 sum and the shift alone is its rounding. From
// column x; returns the first column left.
template <typename Sample>
int Moments32(const uint8_t* const* ref_rows, const uint8_t* const* dist_rows, int x, int width,
              std::span<const uint16_t> taps, Rounding mean, Rounding square, MomentLines& out) {
  const D32 d;
  const int lanes = int(hn::Lanes(d));
  for (; x + lanes <= width; x += lanes) {
    V32 mu1 = hn::Zero(d), mu2 = hn::Zero(d), xx = hn::Zero(d), yy = hn::Zero(d), xy = hn::Zero(d);
    for (size_t k = 0; k < taps.size(); ++k) {
      const V32 t = hn::Set(d, uint32_t{taps[k]});
      const V32 r = LoadSamples<Sample>(d, ref_rows[k], x);
      const V32 s = LoadSamples<Sample>(d, dist_rows[k], x);
      const V32 tr = hn::Mul(t, r), ts = hn::Mul(t, s);
      mu1 = hn::Add(mu1, tr);
      mu2 = hn::Add(mu2, ts);
      xx = hn::Add(xx, hn::Mul(tr, r));
      yy = hn::Add(yy, hn::Mul(ts, s));
      xy = hn::Add(xy, hn::Mul(tr, s));
    }
    hn::StoreU(RoundMean(mu1, mean), d, out.mu1.at(x));
    hn::StoreU(RoundMean(mu2, mean), d, out.mu2.at(x));
    hn::StoreU(hn::ShiftRightSame(xx, square.shift), d, out.xx.at(x));
    hn::StoreU(hn::ShiftRightSame(yy, square.shift), d, out.yy.at(x));
    hn::StoreU(hn::ShiftRightSame(xy, square.shift), d, out.xy.at(x));
  }
  return x;
}

// Moments in uint64 lanes, even and odd columns apart, from column x.
template <typename Sample>
int Moments64(const uint8_t* const* ref_rows, const uint8_t* const* dist_rows, int x, int width,
              std::span<const uint16_t> taps, Rounding mean, Rounding square, MomentLines& out) {
  const D32 d;
  const D64 d64;
  const int lanes = int(hn::Lanes(d));
  for (; x + lanes <= width; x += lanes) {
    V32 mu1 = hn::Zero(d), mu2 = hn::Zero(d);
    V64 xx0 = hn::Zero(d64), yy0 = hn::Zero(d64), xy0 = hn::Zero(d64);
    V64 xx1 = hn::Zero(d64), yy1 = hn::Zero(d64), xy1 = hn::Zero(d64);
    for (size_t k = 0; k < taps.size(); ++k) {
      const V32 t = hn::Set(d, uint32_t{taps[k]});
      const V32 r = LoadSamples<Sample>(d, ref_rows[k], x);
      const V32 s = LoadSamples<Sample>(d, dist_rows[k], x);
      const V32 tr = hn::Mul(t, r), ts = hn::Mul(t, s);
      mu1 = hn::Add(mu1, tr);
      mu2 = hn::Add(mu2, ts);
      xx0 = hn::Add(xx0, hn::MulEven(tr, r));
      yy0 = hn::Add(yy0, hn::MulEven(ts, s));
      xy0 = hn::Add(xy0, hn::MulEven(tr, s));
      const V32 r1 = OddLanes(r), s1 = OddLanes(s), tr1 = OddLanes(tr), ts1 = OddLanes(ts);
      xx1 = hn::Add(xx1, hn::MulEven(tr1, r1));
      yy1 = hn::Add(yy1, hn::MulEven(ts1, s1));
      xy1 = hn::Add(xy1, hn::MulEven(tr1, s1));
    }
    hn::StoreU(RoundMean(mu1, mean), d, out.mu1.at(x));
    hn::StoreU(RoundMean(mu2, mean), d, out.mu2.at(x));
    hn::StoreU(RoundSquares(xx0, xx1, square), d, out.xx.at(x));
    hn::StoreU(RoundSquares(yy0, yy1, square), d, out.yy.at(x));
    hn::StoreU(RoundSquares(xy0, xy1, square), d, out.xy.at(x));
  }
  return x;
}

#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
// Two rows a multiply-add (row_pairs-inl.h says why x86 only).
using namespace row_pairs;  // the helpers of row_pairs-inl.h, made for these kernels

// Lanes(D16) 8-bit samples of a row from column x, widened.
HWY_INLINE V16 LoadBytes(const uint8_t* row, int x) {
  const hn::Rebind<uint8_t, DU16> d8;
  return hn::BitCast(D16(), hn::PromoteTo(DU16(), hn::LoadU(d8, row + x)));
}

// Columns [x, x + Lanes(D16)) of a line, from the lanes of InterleaveLower
// (lower) and InterleaveUpper (upper) sums, as the paired horizontal pass's
// biased int16 halves: at `lo` the low 16 bits less 2^15, at `hi` (unless
// null) the high ones. The x86 packs join each 128-bit block's two halves,
// which are its columns in order.
HWY_INLINE void StoreHalves(V32 lower, V32 upper, int16_t* lo, int16_t* hi) {
  const D32 d;
  const DS32 ds;
  const D16 d16;
  const V32 bias = hn::Set(d, 0x80008000u);
  const VS32 l = hn::BitCast(ds, hn::Xor(lower, bias)), u = hn::BitCast(ds, hn::Xor(upper, bias));
  hn::StoreU(hn::ReorderDemote2To(d16, hn::ShiftRight<16>(hn::ShiftLeft<16>(l)),
                                  hn::ShiftRight<16>(hn::ShiftLeft<16>(u))),
             d16, lo);
  if (hi)
    hn::StoreU(hn::ReorderDemote2To(d16, hn::ShiftRight<16>(l), hn::ShiftRight<16>(u)), d16, hi);
}

// Where the int16 kernels put a row's lines: the uint32 lines (`lines`), or
// with `halves` set its biased 16-bit halves, column c at index c + half.
struct MomentSink {
  MomentLines* lines = nullptr;
  PairedLines* halves = nullptr;
  int half = 0;
  // Line m (0..4: mu1, mu2, xx, yy, xy) at columns [x, x + Lanes(D16)), from
  // the lower and upper lanes' values (means below 2^16).
  HWY_INLINE void Put(int m, int x, V32 lower, V32 upper) const {
    const D32 d;
    if (halves) {
      const size_t at = size_t(x + half);
      if (m < 2)
        StoreHalves(lower, upper, (m == 0 ? halves->mu1 : halves->mu2).data() + at, nullptr);
      else
        StoreHalves(lower, upper, halves->lo[m - 2].data() + at, halves->hi[m - 2].data() + at);
      return;
    }
    EdgeLine* const line[5] = {&lines->mu1, &lines->mu2, &lines->xx, &lines->yy, &lines->xy};
    V32 first, second;
    InColumnOrder(lower, upper, first, second);
    hn::StoreU(first, d, line[m]->at(x));
    hn::StoreU(second, d, line[m]->at(x + int(hn::Lanes(d))));
  }
};

// The uint32 path's sums for 8-bit samples in int16 lanes, two rows (two
// taps) a multiply-add: squares and products of 8-bit samples fit 16 bits,
// biased by -2^15 to int16 (each sum then lacks 2^15 * sum(taps), added back
// modulo 2^32: exact, the caller having checked each sum < 2^32); the taps <
// 2^15 (kVnni: row_pairs::MulAddPairs). Returns the first column left.
template <bool kVnni>
int Moments16(const uint8_t* const* ref_rows, const uint8_t* const* dist_rows, int width,
              std::span<const uint16_t> taps, Rounding mean, Rounding square,
              const MomentSink& out) {
  const D32 d;
  const D16 d16;
  const DS32 ds;
  const int lanes16 = int(hn::Lanes(d16));
  const size_t count = taps.size();
  uint32_t tap_sum = 0;
  for (const uint16_t t : taps) tap_sum += t;
  const V32 unbias = hn::Set(d, uint32_t(32768u * tap_sum));
  const V16 bias = hn::Set(d16, int16_t(-32768));
  int x = 0;
  for (; x + lanes16 <= width; x += lanes16) {
    VS32 mu1_l = hn::Zero(ds), mu1_u = hn::Zero(ds), mu2_l = hn::Zero(ds), mu2_u = hn::Zero(ds);
    VS32 xx_l = hn::Zero(ds), xx_u = hn::Zero(ds), yy_l = hn::Zero(ds), yy_u = hn::Zero(ds);
    VS32 xy_l = hn::Zero(ds), xy_u = hn::Zero(ds);
    for (size_t k = 0; k < count; k += 2) {
      const size_t k1 = PairedRow(taps, k);
      const V16 t = TapPair(taps, k);
      const V16 r0 = LoadBytes(ref_rows[k], x), r1 = LoadBytes(ref_rows[k1], x);
      const V16 s0 = LoadBytes(dist_rows[k], x), s1 = LoadBytes(dist_rows[k1], x);
      const V16 r_l = hn::InterleaveLower(d16, r0, r1), r_u = hn::InterleaveUpper(d16, r0, r1);
      const V16 s_l = hn::InterleaveLower(d16, s0, s1), s_u = hn::InterleaveUpper(d16, s0, s1);
      mu1_l = MulAddPairs<kVnni>(r_l, t, mu1_l);
      mu1_u = MulAddPairs<kVnni>(r_u, t, mu1_u);
      mu2_l = MulAddPairs<kVnni>(s_l, t, mu2_l);
      mu2_u = MulAddPairs<kVnni>(s_u, t, mu2_u);
      xx_l = MulAddPairs<kVnni>(hn::Xor(hn::Mul(r_l, r_l), bias), t, xx_l);
      xx_u = MulAddPairs<kVnni>(hn::Xor(hn::Mul(r_u, r_u), bias), t, xx_u);
      yy_l = MulAddPairs<kVnni>(hn::Xor(hn::Mul(s_l, s_l), bias), t, yy_l);
      yy_u = MulAddPairs<kVnni>(hn::Xor(hn::Mul(s_u, s_u), bias), t, yy_u);
      xy_l = MulAddPairs<kVnni>(hn::Xor(hn::Mul(r_l, s_l), bias), t, xy_l);
      xy_u = MulAddPairs<kVnni>(hn::Xor(hn::Mul(r_u, s_u), bias), t, xy_u);
    }
    out.Put(0, x, RoundMean(hn::BitCast(d, mu1_l), mean), RoundMean(hn::BitCast(d, mu1_u), mean));
    out.Put(1, x, RoundMean(hn::BitCast(d, mu2_l), mean), RoundMean(hn::BitCast(d, mu2_u), mean));
    const auto moment = [&](int m, VS32 l, VS32 u) {
      out.Put(m, x, hn::ShiftRightSame(hn::Add(hn::BitCast(d, l), unbias), square.shift),
              hn::ShiftRightSame(hn::Add(hn::BitCast(d, u), unbias), square.shift));
    };
    moment(2, xx_l, xx_u);
    moment(3, yy_l, yy_u);
    moment(4, xy_l, xy_u);
  }
  return x;
}

// Lanes(D16) 16-bit (little-endian) samples of a row from column x.
HWY_INLINE V16 LoadWords(const uint8_t* row, int x) {
  return hn::BitCast(D16(), hn::LoadU(DU16(), reinterpret_cast<const uint16_t*>(row) + x));
}

// The five sums of 16-bit samples in int16 lanes, two rows a multiply-add,
// each product of two samples split into its 16-bit halves (mullo and the
// unsigned mulhi): the moment sum is hi * 2^16 + lo with lo = sum t * low
// half and hi = sum t * high half, each below 2^32 for taps summing to at
// most 2^16, and Round(hi * 2^16 + lo, n) = (hi << (16 - n)) + Round(lo, n)
// for n <= 16, modulo 2^32 as the reference's cut (docs/spec/vif.md, "Moments
// of 16-bit samples in 32-bit lanes"). Every int16 operand is biased by -2^15
// (each sum then lacks 2^15 * sum(taps), added back modulo 2^32); the taps
// < 2^15 (kVnni: row_pairs::MulAddPairs). Returns the first column left.
template <bool kVnni>
int MomentHalves16(const uint8_t* const* ref_rows, const uint8_t* const* dist_rows, int width,
                   std::span<const uint16_t> taps, Rounding mean, Rounding square,
                   const MomentSink& out) {
  const D32 d;
  const D16 d16;
  const DU16 du16;
  const DS32 ds;
  const int lanes16 = int(hn::Lanes(d16));
  const size_t count = taps.size();
  uint32_t tap_sum = 0;
  for (const uint16_t t : taps) tap_sum += t;
  const V32 unbias = hn::Set(d, uint32_t(32768u * tap_sum));
  const V16 bias = hn::Set(d16, int16_t(-32768));
  const auto high = [du16, d16](V16 a, V16 b) {
    return hn::BitCast(d16, hn::MulHigh(hn::BitCast(du16, a), hn::BitCast(du16, b)));
  };
  int x = 0;
  for (; x + lanes16 <= width; x += lanes16) {
    VS32 mu1_l = hn::Zero(ds), mu1_u = hn::Zero(ds), mu2_l = hn::Zero(ds), mu2_u = hn::Zero(ds);
    VS32 xx_lo_l = hn::Zero(ds), xx_lo_u = hn::Zero(ds), xx_hi_l = hn::Zero(ds),
         xx_hi_u = hn::Zero(ds);
    VS32 yy_lo_l = hn::Zero(ds), yy_lo_u = hn::Zero(ds), yy_hi_l = hn::Zero(ds),
         yy_hi_u = hn::Zero(ds);
    VS32 xy_lo_l = hn::Zero(ds), xy_lo_u = hn::Zero(ds), xy_hi_l = hn::Zero(ds),
         xy_hi_u = hn::Zero(ds);
    for (size_t k = 0; k < count; k += 2) {
      const size_t k1 = PairedRow(taps, k);
      const V16 t = TapPair(taps, k);
      const V16 r0 = LoadWords(ref_rows[k], x), r1 = LoadWords(ref_rows[k1], x);
      const V16 s0 = LoadWords(dist_rows[k], x), s1 = LoadWords(dist_rows[k1], x);
      const V16 r_l = hn::InterleaveLower(d16, r0, r1), r_u = hn::InterleaveUpper(d16, r0, r1);
      const V16 s_l = hn::InterleaveLower(d16, s0, s1), s_u = hn::InterleaveUpper(d16, s0, s1);
      const auto acc = [&](V16 v, VS32 sum) {
        return MulAddPairs<kVnni>(hn::Xor(v, bias), t, sum);
      };
      mu1_l = acc(r_l, mu1_l);
      mu1_u = acc(r_u, mu1_u);
      mu2_l = acc(s_l, mu2_l);
      mu2_u = acc(s_u, mu2_u);
      xx_lo_l = acc(hn::Mul(r_l, r_l), xx_lo_l);
      xx_lo_u = acc(hn::Mul(r_u, r_u), xx_lo_u);
      xx_hi_l = acc(high(r_l, r_l), xx_hi_l);
      xx_hi_u = acc(high(r_u, r_u), xx_hi_u);
      yy_lo_l = acc(hn::Mul(s_l, s_l), yy_lo_l);
      yy_lo_u = acc(hn::Mul(s_u, s_u), yy_lo_u);
      yy_hi_l = acc(high(s_l, s_l), yy_hi_l);
      yy_hi_u = acc(high(s_u, s_u), yy_hi_u);
      xy_lo_l = acc(hn::Mul(r_l, s_l), xy_lo_l);
      xy_lo_u = acc(hn::Mul(r_u, s_u), xy_lo_u);
      xy_hi_l = acc(high(r_l, s_l), xy_hi_l);
      xy_hi_u = acc(high(r_u, s_u), xy_hi_u);
    }
    const auto mean_of = [&](VS32 sum) {
      return RoundMean(hn::Add(hn::BitCast(d, sum), unbias), mean);
    };
    out.Put(0, x, mean_of(mu1_l), mean_of(mu1_u));
    out.Put(1, x, mean_of(mu2_l), mean_of(mu2_u));
    const V32 add = hn::Set(d, square.add);
    const int up = 16 - square.shift;
    const auto join = [&](VS32 lo, VS32 hi) {
      return hn::Add(
          hn::ShiftLeftSame(hn::Add(hn::BitCast(d, hi), unbias), up),
          hn::ShiftRightSame(hn::Add(hn::Add(hn::BitCast(d, lo), unbias), add), square.shift));
    };
    out.Put(2, x, join(xx_lo_l, xx_hi_l), join(xx_lo_u, xx_hi_u));
    out.Put(3, x, join(yy_lo_l, yy_hi_l), join(yy_lo_u, yy_hi_u));
    out.Put(4, x, join(xy_lo_l, xy_hi_l), join(xy_lo_u, xy_hi_u));
  }
  return x;
}
// Two output rows a pass (odd tap counts n): rows i and i + 1 read the n + 1
// input rows 0..n, each pair of them (k, k + 1), k even, interleaved and its
// operands (samples, biased products) made once, then multiplied by row i's
// taps (t[k], t[k + 1]) and by row i + 1's (t[k - 1], t[k]), with t[-1] =
// t[n] = 0. Each row's sums are then its one-row kernel's: the same terms
// (a zero tap adds nothing), wrapping modulo 2^32 in any order. The pairs'
// taps are kept as int32 lanes' values, which the loop broadcasts from memory.
struct TwoRowTaps {
  static constexpr size_t kMaxPairs = kMaxHalfTaps + 1;
  uint32_t a[kMaxPairs], b[kMaxPairs];  // pair p = k / 2: row i's, row i + 1's
  size_t pairs;
  explicit TwoRowTaps(std::span<const uint16_t> taps) : pairs((taps.size() + 1) / 2) {
    for (size_t p = 0; p < pairs; ++p) {
      const size_t k = 2 * p;
      const uint32_t next = k + 1 < taps.size() ? taps[k + 1] : 0;
      const uint32_t before = k > 0 ? taps[k - 1] : 0;
      a[p] = uint32_t{taps[k]} | next << 16;
      b[p] = before | uint32_t{taps[k]} << 16;
    }
  }
};

// The sums of two output rows (a: row i, b: row i + 1) over columns [x, x +
// Lanes(D16)): kParts 1 the lanes of InterleaveLower, 2 those of
// InterleaveUpper, 3 both in one pass over the rows (AVX3's 32 registers
// hold them). operands(r, s, v) makes a pair's kSums int16 operands from its
// interleaved ref and dist samples; load(row, x) a row's widened samples.
template <bool kVnni, int kParts, size_t kSums, class Load, class Operands>
HWY_INLINE void SumTwoRows(const uint8_t* const* ref_rows, const uint8_t* const* dist_rows, int x,
                           const TwoRowTaps& taps, const Load& load, const Operands& operands,
                           VS32 (&a)[2][kSums], VS32 (&b)[2][kSums]) {
  const D32 d;
  const D16 d16;
  const DS32 ds;
  for (size_t m = 0; m < kSums; ++m) a[0][m] = a[1][m] = b[0][m] = b[1][m] = hn::Zero(ds);
  for (size_t p = 0; p < taps.pairs; ++p) {
    const size_t k = 2 * p;
    const V16 ta = hn::BitCast(d16, hn::Set(d, taps.a[p]));
    const V16 tb = hn::BitCast(d16, hn::Set(d, taps.b[p]));
    const V16 r0 = load(ref_rows[k], x), r1 = load(ref_rows[k + 1], x);
    const V16 s0 = load(dist_rows[k], x), s1 = load(dist_rows[k + 1], x);
    const auto part = [&](int h, V16 r, V16 s) {
      V16 v[kSums];
      operands(r, s, v);
      [&]<size_t... M>(std::index_sequence<M...>) {
        ((a[h][M] = MulAddPairs<kVnni>(v[M], ta, a[h][M]),
          b[h][M] = MulAddPairs<kVnni>(v[M], tb, b[h][M])),
         ...);
      }
      (std::make_index_sequence<kSums>());
    };
    if (kParts & 1) part(0, hn::InterleaveLower(d16, r0, r1), hn::InterleaveLower(d16, s0, s1));
    if (kParts & 2) part(1, hn::InterleaveUpper(d16, r0, r1), hn::InterleaveUpper(d16, s0, s1));
  }
}

// Moments16 of output rows i and i + 1 (out_a, out_b) from the n + 1 input
// rows, n odd. Returns the first column left.
template <bool kVnni>
int Moments16Pair(const uint8_t* const* ref_rows, const uint8_t* const* dist_rows, int width,
                  std::span<const uint16_t> taps, Rounding mean, Rounding square,
                  const MomentSink& out_a, const MomentSink& out_b) {
  const D32 d;
  const D16 d16;
  const int lanes16 = int(hn::Lanes(d16));
  uint32_t tap_sum = 0;
  for (const uint16_t t : taps) tap_sum += t;
  const V32 unbias = hn::Set(d, uint32_t(32768u * tap_sum));
  const V16 bias = hn::Set(d16, int16_t(-32768));
  const auto operands = [bias](V16 r, V16 s, V16(&v)[5]) {
    v[0] = r;
    v[1] = s;
    v[2] = hn::Xor(hn::Mul(r, r), bias);
    v[3] = hn::Xor(hn::Mul(s, s), bias);
    v[4] = hn::Xor(hn::Mul(r, s), bias);
  };
  const auto load = [](const uint8_t* row, int x) { return LoadBytes(row, x); };
  const auto put = [&](const MomentSink& out, int x, const VS32(&l)[5], const VS32(&u)[5]) {
    for (int m = 0; m < 2; ++m)
      out.Put(m, x, RoundMean(hn::BitCast(d, l[m]), mean), RoundMean(hn::BitCast(d, u[m]), mean));
    for (int m = 2; m < 5; ++m)
      out.Put(m, x, hn::ShiftRightSame(hn::Add(hn::BitCast(d, l[m]), unbias), square.shift),
              hn::ShiftRightSame(hn::Add(hn::BitCast(d, u[m]), unbias), square.shift));
  };
  const TwoRowTaps pairs(taps);
  int x = 0;
  for (; x + lanes16 <= width; x += lanes16) {
    VS32 a[2][5], b[2][5];
#if HWY_TARGET <= HWY_AVX3
    SumTwoRows<kVnni, 3>(ref_rows, dist_rows, x, pairs, load, operands, a, b);
#else
    // 16 registers: one half of the columns at a time.
    VS32 a_u[2][5], b_u[2][5];
    SumTwoRows<kVnni, 1>(ref_rows, dist_rows, x, pairs, load, operands, a, b);
    SumTwoRows<kVnni, 2>(ref_rows, dist_rows, x, pairs, load, operands, a_u, b_u);
    for (int m = 0; m < 5; ++m) {
      a[1][m] = a_u[1][m];
      b[1][m] = b_u[1][m];
    }
#endif
    put(out_a, x, a[0], a[1]);
    put(out_b, x, b[0], b[1]);
  }
  return x;
}

// MomentHalves16 of output rows i and i + 1 (out_a, out_b) from the n + 1
// input rows, n odd; one half of the columns at a time (16 sums a row).
// Returns the first column left.
template <bool kVnni>
int MomentHalves16Pair(const uint8_t* const* ref_rows, const uint8_t* const* dist_rows, int width,
                       std::span<const uint16_t> taps, Rounding mean, Rounding square,
                       const MomentSink& out_a, const MomentSink& out_b) {
  const D32 d;
  const D16 d16;
  const DU16 du16;
  const int lanes16 = int(hn::Lanes(d16));
  uint32_t tap_sum = 0;
  for (const uint16_t t : taps) tap_sum += t;
  const V32 unbias = hn::Set(d, uint32_t(32768u * tap_sum));
  const V16 bias = hn::Set(d16, int16_t(-32768));
  // Sums 0, 1: the means; 2 + 2m, 3 + 2m: moment m's low and high halves.
  const auto operands = [bias, du16, d16](V16 r, V16 s, V16(&v)[8]) {
    const auto high = [du16, d16](V16 p, V16 q) {
      return hn::BitCast(d16, hn::MulHigh(hn::BitCast(du16, p), hn::BitCast(du16, q)));
    };
    v[0] = hn::Xor(r, bias);
    v[1] = hn::Xor(s, bias);
    v[2] = hn::Xor(hn::Mul(r, r), bias);
    v[3] = hn::Xor(high(r, r), bias);
    v[4] = hn::Xor(hn::Mul(s, s), bias);
    v[5] = hn::Xor(high(s, s), bias);
    v[6] = hn::Xor(hn::Mul(r, s), bias);
    v[7] = hn::Xor(high(r, s), bias);
  };
  const auto load = [](const uint8_t* row, int x) { return LoadWords(row, x); };
  const V32 add = hn::Set(d, square.add);
  const int up = 16 - square.shift;
  // A row's five lines at one half's columns, from its sums.
  const auto finish = [&](const VS32(&sum)[8], V32(&line)[5]) {
    for (int m = 0; m < 2; ++m) line[m] = RoundMean(hn::Add(hn::BitCast(d, sum[m]), unbias), mean);
    for (int m = 0; m < 3; ++m)
      line[2 + m] =
          hn::Add(hn::ShiftLeftSame(hn::Add(hn::BitCast(d, sum[3 + 2 * m]), unbias), up),
                  hn::ShiftRightSame(hn::Add(hn::Add(hn::BitCast(d, sum[2 + 2 * m]), unbias), add),
                                     square.shift));
  };
  const TwoRowTaps pairs(taps);
  int x = 0;
  for (; x + lanes16 <= width; x += lanes16) {
    V32 a_l[5], b_l[5], a_u[5], b_u[5];
    {
      VS32 a[2][8], b[2][8];
      SumTwoRows<kVnni, 1>(ref_rows, dist_rows, x, pairs, load, operands, a, b);
      finish(a[0], a_l);
      finish(b[0], b_l);
    }
    {
      VS32 a[2][8], b[2][8];
      SumTwoRows<kVnni, 2>(ref_rows, dist_rows, x, pairs, load, operands, a, b);
      finish(a[1], a_u);
      finish(b[1], b_u);
    }
    for (int m = 0; m < 5; ++m) {
      out_a.Put(m, x, a_l[m], a_u[m]);
      out_b.Put(m, x, b_l[m], b_u[m]);
    }
  }
  return x;
}

// Which int16 kernel runs these taps and roundings on these samples.
enum class Int16Kernel { kNone, kMoments16, kMomentHalves16 };
Int16Kernel PickInt16Kernel(SampleWidth sample, std::span<const uint16_t> taps, Rounding square) {
  uint64_t tap_sum = 0;
  bool taps16 = true;
  for (const uint16_t t : taps) {
    taps16 = taps16 && t < 32768;
    tap_sum += t;
  }
  if (!taps16) return Int16Kernel::kNone;
  if (sample == SampleWidth::k8 && square.add == 0 && tap_sum * 255 * 255 < (uint64_t{1} << 32))
    return Int16Kernel::kMoments16;
  // The halves' bounds: lo + square.add < 2^32 and hi * 2^16 a multiple of 2^shift.
  if (sample == SampleWidth::k16 && tap_sum <= 65536 && square.add < 65536 && square.shift <= 16)
    return Int16Kernel::kMomentHalves16;
  return Int16Kernel::kNone;
}

// The two-row kernel into out_a and out_b where these taps (an odd count) and
// roundings have one: returns the first column left (0 where none ran).
int MomentsPair(const uint8_t* const* ref_rows, const uint8_t* const* dist_rows, SampleWidth sample,
                int width, std::span<const uint16_t> taps, Rounding mean, Rounding square,
                const MomentSink& out_a, const MomentSink& out_b) {
  const Int16Kernel kernel = taps.size() % 2 == 1 && taps.size() <= 2 * kMaxHalfTaps + 1
                                 ? PickInt16Kernel(sample, taps, square)
                                 : Int16Kernel::kNone;
  if (kernel == Int16Kernel::kNone) return 0;
  return WithVnniChoice([&]<bool kVnni>() {
    return kernel == Int16Kernel::kMoments16
               ? Moments16Pair<kVnni>(ref_rows, dist_rows, width, taps, mean, square, out_a, out_b)
               : MomentHalves16Pair<kVnni>(ref_rows, dist_rows, width, taps, mean, square, out_a,
                                           out_b);
  });
}
#endif  // HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128

// Columns [x, width) of one output row by the uint32 or uint64 lanes, then
// the row's tail by the reference's steps.
void MomentsFrom(std::span<const uint8_t* const> ref_rows,
                 std::span<const uint8_t* const> dist_rows, SampleWidth sample, int x, int width,
                 std::span<const uint16_t> taps, Rounding mean, Rounding square, MomentLines& out) {
  uint64_t tap_sum = 0;
  for (const uint16_t t : taps) tap_sum += t;
  const bool fits32 =
      sample == SampleWidth::k8 && square.add == 0 && tap_sum * 255 * 255 < (uint64_t{1} << 32);
  if (sample == SampleWidth::k8)
    x = fits32 ? Moments32<uint8_t>(ref_rows.data(), dist_rows.data(), x, width, taps, mean, square,
                                    out)
               : Moments64<uint8_t>(ref_rows.data(), dist_rows.data(), x, width, taps, mean, square,
                                    out);
  else
    x = Moments64<uint16_t>(ref_rows.data(), dist_rows.data(), x, width, taps, mean, square, out);
  for (; x < width; ++x)
    vif::vertical_moments_at(ref_rows, dist_rows, sample, x, taps, mean, square, out);
}

void VerticalMoments(std::span<const uint8_t* const> ref_rows,
                     std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                     std::span<const uint16_t> taps, Rounding mean, Rounding square,
                     MomentLines& out) {
  int x = 0;
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
  const Int16Kernel kernel = PickInt16Kernel(sample, taps, square);
  const MomentSink sink{&out};
  WithVnniChoice([&]<bool kVnni>() {
    if (kernel == Int16Kernel::kMoments16)
      x = Moments16<kVnni>(ref_rows.data(), dist_rows.data(), width, taps, mean, square, sink);
    if (kernel == Int16Kernel::kMomentHalves16)
      x = MomentHalves16<kVnni>(ref_rows.data(), dist_rows.data(), width, taps, mean, square, sink);
  });
#endif
  MomentsFrom(ref_rows, dist_rows, sample, x, width, taps, mean, square, out);
}

// Output rows i (out_a: input rows 0..n-1) and i + 1 (out_b: rows 1..n) of
// n + 1 input rows.
void VerticalMomentsPair(std::span<const uint8_t* const> ref_rows,
                         std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                         std::span<const uint16_t> taps, Rounding mean, Rounding square,
                         MomentLines& out_a, MomentLines& out_b) {
  const size_t n = taps.size();
  int x = 0;
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
  x = MomentsPair(ref_rows.data(), dist_rows.data(), sample, width, taps, mean, square,
                  MomentSink{&out_a}, MomentSink{&out_b});
#endif
  if (x == 0) {
    VerticalMoments(ref_rows.first(n), dist_rows.first(n), sample, width, taps, mean, square,
                    out_a);
    VerticalMoments(ref_rows.subspan(1, n), dist_rows.subspan(1, n), sample, width, taps, mean,
                    square, out_b);
    return;
  }
  MomentsFrom(ref_rows.first(n), dist_rows.first(n), sample, x, width, taps, mean, square, out_a);
  MomentsFrom(ref_rows.subspan(1, n), dist_rows.subspan(1, n), sample, x, width, taps, mean, square,
              out_b);
}

#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
// The taps vertical_moment_halves takes: an odd count of 5 to 17, each below
// 2^15, summing to at most 2^16, with an int16 kernel for these roundings.
bool HalvesTaps(SampleWidth sample, std::span<const uint16_t> taps, Rounding square) {
  const size_t n = taps.size();
  if (n % 2 == 0 || n < 5 || n > 17) return false;
  uint64_t tap_sum = 0;
  for (const uint16_t t : taps) tap_sum += t;
  return tap_sum <= 65536 && PickInt16Kernel(sample, taps, square) != Int16Kernel::kNone;
}
#endif

// vertical_moment_halves: the int16 kernels straight into the paired
// horizontal pass's halves.
int VerticalMomentHalves(std::span<const uint8_t* const> ref_rows,
                         std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                         std::span<const uint16_t> taps, Rounding mean, Rounding square,
                         PairedLines& out) {
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
  if (!HalvesTaps(sample, taps, square)) return 0;
  const MomentSink sink{nullptr, &out, int(taps.size() / 2)};
  const bool bytes = PickInt16Kernel(sample, taps, square) == Int16Kernel::kMoments16;
  return WithVnniChoice([&]<bool kVnni>() {
    return bytes ? Moments16<kVnni>(ref_rows.data(), dist_rows.data(), width, taps, mean, square,
                                    sink)
                 : MomentHalves16<kVnni>(ref_rows.data(), dist_rows.data(), width, taps, mean,
                                         square, sink);
  });
#else
  (void)ref_rows, (void)dist_rows, (void)sample, (void)width, (void)taps, (void)mean, (void)square,
      (void)out;
  return 0;
#endif
}

// vertical_moment_halves_pair: the two-row kernels into both rows' halves.
int VerticalMomentHalvesPair(std::span<const uint8_t* const> ref_rows,
                             std::span<const uint8_t* const> dist_rows, SampleWidth sample,
                             int width, std::span<const uint16_t> taps, Rounding mean,
                             Rounding square, PairedLines& out_a, PairedLines& out_b) {
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
  if (!HalvesTaps(sample, taps, square)) return 0;
  const int half = int(taps.size() / 2);
  return MomentsPair(ref_rows.data(), dist_rows.data(), sample, width, taps, mean, square,
                     MomentSink{nullptr, &out_a, half}, MomentSink{nullptr, &out_b, half});
#else
  (void)ref_rows, (void)dist_rows, (void)sample, (void)width, (void)taps, (void)mean, (void)square,
      (void)out_a, (void)out_b;
  return 0;
#endif
}

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace exactvq::vif::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::vif::cpu {

HWY_EXPORT(VerticalMoments);
HWY_EXPORT(VerticalMomentsPair);
HWY_EXPORT(VerticalMomentHalves);
HWY_EXPORT(VerticalMomentHalvesPair);

void vertical_moments(std::span<const uint8_t* const> ref_rows,
                      std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                      std::span<const uint16_t> taps, Rounding mean, Rounding square,
                      MomentLines& out) {
  HWY_DYNAMIC_DISPATCH(VerticalMoments)
  (ref_rows, dist_rows, sample, width, taps, mean, square, out);
}

void vertical_moments_pair(std::span<const uint8_t* const> ref_rows,
                           std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                           std::span<const uint16_t> taps, Rounding mean, Rounding square,
                           MomentLines& out_a, MomentLines& out_b) {
  HWY_DYNAMIC_DISPATCH(VerticalMomentsPair)
  (ref_rows, dist_rows, sample, width, taps, mean, square, out_a, out_b);
}

int vertical_moment_halves_pair(std::span<const uint8_t* const> ref_rows,
                                std::span<const uint8_t* const> dist_rows, SampleWidth sample,
                                int width, std::span<const uint16_t> taps, Rounding mean,
                                Rounding square, PairedLines& out_a, PairedLines& out_b) {
  return HWY_DYNAMIC_DISPATCH(VerticalMomentHalvesPair)(ref_rows, dist_rows, sample, width, taps,
                                                        mean, square, out_a, out_b);
}

int vertical_moment_halves(std::span<const uint8_t* const> ref_rows,
                           std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                           std::span<const uint16_t> taps, Rounding mean, Rounding square,
                           PairedLines& out) {
  return HWY_DYNAMIC_DISPATCH(VerticalMomentHalves)(ref_rows, dist_rows, sample, width, taps, mean,
                                                    square, out);
}

}  // namespace exactvq::vif::cpu
#endif  // HWY_ONCE
