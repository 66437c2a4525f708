// The horizontal pass and the per-pixel statistic of vif (the twin of
// vif::horizontal_statistics) as a Highway kernel, one row at a time.
//
// The horizontal sums: means in uint32 lanes (the reference's uint32 sums),
// moments in uint64 lanes (MulEven: exact 64-bit products), even and odd
// columns apart; on x86, for taps below 2^15 summing to at most 2^16 + 1, by
// pairs of taps instead: multiply-adds of the lines' 16-bit halves biased to
// int16, summed modulo 2^32 (exact: each half's sum is below 2^32), the
// moments (high << 16) + low in uint64. The statistic: one pixel a 64-bit lane, each step the
// reference's (the wrapped uint32 differences read as int32, the binary64
// gain, residual and signal in its order, no fused operations), every
// branch computed in all lanes and selected; lanes whose branch takes no
// log2 get the argument 2^17, whose term is exactly 0. The fixed-point log2
// gathers its entries from the pinned table. Every pixel adds integers, so
// the lanes' sums equal the reference's in any order.
#include "metrics/vif/cpu/vif_simd.h"
#include "metrics/vif/log2_table.h"

#include <algorithm>
#include <vector>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/vif/cpu/horizontal_statistics.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::vif::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR
// One-lane vectors cannot split lanes: the reference is the kernel.
LevelSums HorizontalStatistics(const MomentLines& lines, int width, std::span<const uint16_t> taps,
                               double gain_limit) {
  return vif::horizontal_statistics(lines, width, taps, gain_limit);
}
#else

using D32 = hn::ScalableTag<uint32_t>;
using D64 = hn::Repartition<uint64_t, D32>;
using DI = hn::RebindToSigned<D64>;
using DF = hn::RebindToFloat<D64>;
using V32 = hn::Vec<D32>;
using V64 = hn::Vec<D64>;
using VI = hn::Vec<DI>;
using VF = hn::Vec<DF>;

// sigma_n^2 = 2 in 16.16 fixed point; also the log2 argument whose term is 0:
// log2_fixed_32(2^17) = 2048 * 17.
constexpr int64_t kNoiseVariance = 65536 << 1;

HWY_INLINE V32 OddLanes(V32 v) {
  const D32 d;
  const D64 d64;
  return hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(d64, v)));
}

// (a * b + 2^31) >> 32 of the even uint32 lanes, exact in uint64.
HWY_INLINE V64 RoundedProductHigh(V32 a, V32 b) {
  const D64 d64;
  return hn::ShiftRight<32>(hn::Add(hn::MulEven(a, b), hn::Set(d64, uint64_t{0x80000000u})));
}

// int32_t(uint32_t((sum + 32768) >> 16) - product): the low 32 bits of the
// uint64 difference, sign-extended.
HWY_INLINE VI Sigma(V64 sum, V64 product) {
  const D64 d64;
  const DI di;
  const V64 moment = hn::ShiftRight<16>(hn::Add(sum, hn::Set(d64, uint64_t{32768})));
  return hn::ShiftRight<32>(hn::ShiftLeft<32>(hn::BitCast(di, hn::Sub(moment, product))));
}

// log2_fixed_32 and log2_fixed_64 (the same formula) of lanes 2^15 <= v <
// 2^53: floor(log2 v) from the exponent of double(v) (exact), the top 16
// bits, their table entry.
HWY_INLINE VI Log2Fixed(VI v, const int64_t* table) {
  const D64 d64;
  const DI di;
  const DF df;
  const VI exponent =
      hn::Sub(hn::ShiftRight<52>(hn::BitCast(di, hn::ConvertTo(df, v))), hn::Set(di, 1023));
  const VI shift = hn::Sub(exponent, hn::Set(di, 15));
  const V64 top = hn::Shr(hn::BitCast(d64, v), hn::BitCast(d64, shift));
  // Byte offsets of the entries; each gathers 8 bytes, the entry its low 16 bits.
  const VI offsets = hn::BitCast(di, hn::ShiftLeft<1>(hn::And(top, hn::Set(d64, uint64_t{32767}))));
  const VI entry = hn::And(hn::GatherOffset(di, table, offsets), hn::Set(di, 0xFFFF));
  return hn::Add(entry, hn::ShiftLeft<11>(shift));
}

// The statistic of Lanes(D64) pixels: their horizontal means in the even
// uint32 lanes of mu1, mu2 and their moment sums, added to the lanes' sums
// (separate vectors: SVE vectors cannot be members of a struct).
HWY_INLINE void PixelStatistics(V32 mu1, V32 mu2, V64 xx, V64 yy, V64 xy, VF gain_limit,
                                const int64_t* table, VI& num_log, VI& den_log, VI& num_non_log,
                                VI& den_non_log) {
  const DI di;
  const DF df;
  const VI zero = hn::Zero(di);
  const VI noise_variance = hn::Set(di, kNoiseVariance);
  const VI sigma1_sq = Sigma(xx, RoundedProductHigh(mu1, mu1));
  const VI sigma2_sq = hn::Max(Sigma(yy, RoundedProductHigh(mu2, mu2)), zero);
  const VI sigma12 = Sigma(xy, RoundedProductHigh(mu1, mu2));

  const auto no_log = hn::Lt(sigma1_sq, noise_variance);
  num_non_log = hn::Add(num_non_log, hn::IfThenElseZero(no_log, sigma2_sq));
  den_non_log = hn::Add(den_non_log, hn::IfThenElseZero(no_log, hn::Set(di, 1)));
  // Flat areas give whole vectors without log2 terms: their lanes would add 0.
  if (hn::AllTrue(di, no_log)) return;
  const VI den_arg = hn::IfThenElse(no_log, noise_variance, hn::Add(noise_variance, sigma1_sq));
  den_log = hn::Add(den_log, hn::Sub(Log2Fixed(den_arg, table), hn::Set(di, 2048 * 17)));

  const auto with_gain =
      hn::AndNot(no_log, hn::And(hn::Gt(sigma12, zero), hn::Gt(sigma2_sq, zero)));
  if (hn::AllFalse(di, with_gain)) return;
  const double eps = 65536 * 1.0e-10;
  const VF s1 = hn::ConvertTo(df, sigma1_sq), s2 = hn::ConvertTo(df, sigma2_sq),
           s12 = hn::ConvertTo(df, sigma12);
  VF gain = hn::Div(s12, hn::Add(s1, hn::Set(df, eps)));
  // max(trunc(v), 0) is trunc(max(v, 0)); v < 2^31 where it is kept.
  const VI residual = hn::ConvertTo(di, hn::Max(hn::Sub(s2, hn::Mul(gain, s12)), hn::Zero(df)));
  gain = hn::IfThenElse(hn::Lt(gain, gain_limit), gain, gain_limit);
  const VI noise = hn::Add(residual, noise_variance);
  // Where kept, 0 < gain <= sigma12 / sigma1^2, so gain^2 * sigma1^2 <=
  // sigma12^2 / sigma1^2 < 2^62 / 2^17: the truncation is in range and the
  // log2 arguments stay below 2^53.
  const VI signal = hn::Add(hn::ConvertTo(di, hn::Mul(hn::Mul(gain, gain), s1)), noise);
  const VI signal_arg = hn::IfThenElse(with_gain, signal, noise_variance);
  const VI noise_arg = hn::IfThenElse(with_gain, noise, noise_variance);
  num_log = hn::Add(num_log, hn::Sub(Log2Fixed(signal_arg, table), Log2Fixed(noise_arg, table)));
}

#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
// x86 only: ReorderWidenMulAccumulate is there the pairwise multiply-add of
// adjacent int16 lanes into their int32 lane (pmaddwd), which the sums below
// read lane by lane; elsewhere its lanes' order is unspecified.

using D16 = hn::Repartition<int16_t, D32>;
using DS32 = hn::RebindToSigned<D32>;
using DH32 = hn::Half<D32>;
using V16 = hn::Vec<D16>;
using VS32 = hn::Vec<DS32>;

// A row's lines as int16 halves biased by -2^15 (v - 32768 of each 16-bit
// half), columns [-half, width + half) and zeros after: the horizontal sums
// then take two taps a multiply-add, the taps < 2^15 and the halves' sums
// below 2^32 (taps summing to at most 2^16 + 1).
struct PairedLines {
  std::vector<int16_t> mu1, mu2, lo[3], hi[3];
};

// count columns of `line` from `first` into lo (the low halves) and hi (the
// high ones, unless null); `padding` zeros after them.
void SplitLine(const EdgeLine& line, int first, int count, int padding, std::vector<int16_t>& lo,
               std::vector<int16_t>* hi) {
  const D32 d;
  const D16 d16;
  const int lanes16 = int(hn::Lanes(d16)), lanes = int(hn::Lanes(d));
  // Columns [0, count) are all written below; only the padding is zeroed.
  lo.resize(size_t(count + padding));
  std::fill(lo.begin() + count, lo.end(), int16_t{0});
  if (hi) {
    hi->resize(size_t(count + padding));
    std::fill(hi->begin() + count, hi->end(), int16_t{0});
  }
  const V32 bias = hn::Set(d, 0x80008000u);
  int i = 0;
  for (; i + lanes16 <= count; i += lanes16) {
    const V16 a = hn::BitCast(d16, hn::Xor(hn::LoadU(d, line.at(first + i)), bias));
    const V16 b = hn::BitCast(d16, hn::Xor(hn::LoadU(d, line.at(first + i + lanes)), bias));
    hn::StoreU(hn::ConcatEven(d16, b, a), d16, lo.data() + i);
    if (hi) hn::StoreU(hn::ConcatOdd(d16, b, a), d16, hi->data() + i);
  }
  for (; i < count; ++i) {
    const uint32_t v = line[first + i] ^ 0x80008000u;
    lo[size_t(i)] = int16_t(uint16_t(v));
    if (hi) (*hi)[size_t(i)] = int16_t(uint16_t(v >> 16));
  }
}

// The int32 sums of kPairs pairs of taps (tap_pairs) over the biased halves
// from `at`: lane j the pixel whose first column is at + 2j.
template <size_t kPairs>
HWY_INLINE VS32 PairedSum(const int16_t* at, const V16* tap_pairs) {
  const DS32 ds;
  const D16 d16;
  VS32 sum = hn::Zero(ds), unused = hn::Zero(ds);
#pragma GCC unroll 9
  for (size_t p = 0; p < kPairs; ++p)
    sum = hn::ReorderWidenMulAccumulate(ds, hn::LoadU(d16, at + 2 * p), tap_pairs[p], sum, unused);
  return sum;
}

// uint64 (hi << 16) + lo of the lanes of one half of two uint32 vectors.
HWY_INLINE V64 Moment64(hn::Vec<DH32> lo, hn::Vec<DH32> hi) {
  const D64 d64;
  return hn::Add(hn::PromoteTo(d64, lo), hn::ShiftLeft<16>(hn::PromoteTo(d64, hi)));
}

// A uint32 mean in the even lanes (where MulEven reads it).
HWY_INLINE V32 EvenMean(hn::Vec<DH32> mu) {
  const D32 d;
  const D64 d64;
  return hn::BitCast(d, hn::PromoteTo(d64, mu));
}

// The vectors of Lanes(D16) pixels from 0 (whole vectors only) by pairs of
// taps; returns the first pixel left.
template <size_t kTaps>
int PairedStatistics(const MomentLines& lines, int width, std::span<const uint16_t> taps, VF limit,
                     const int64_t* table, VI& num_log, VI& den_log, VI& num_non_log,
                     VI& den_non_log) {
  constexpr size_t kPairs = (kTaps + 1) / 2;
  const D32 d;
  const DH32 dh;
  const D16 d16;
  const int lanes16 = int(hn::Lanes(d16));
  const int half = int(kTaps / 2);
  thread_local PairedLines split;
  const int count = width + 2 * half;
  SplitLine(lines.mu1, -half, count, lanes16, split.mu1, nullptr);
  SplitLine(lines.mu2, -half, count, lanes16, split.mu2, nullptr);
  const EdgeLine* moments[3] = {&lines.xx, &lines.yy, &lines.xy};
  for (int m = 0; m < 3; ++m)
    SplitLine(*moments[m], -half, count, lanes16, split.lo[m], &split.hi[m]);
  V16 tap_pairs[kPairs];
  uint32_t tap_sum = 0;
  for (size_t p = 0; p < kPairs; ++p) {
    const uint32_t second = 2 * p + 1 < kTaps ? taps[2 * p + 1] : 0;
    tap_pairs[p] = hn::BitCast(d16, hn::Set(d, uint32_t{taps[2 * p]} | second << 16));
    tap_sum += taps[2 * p] + second;
  }
  // Each sum read -32768 for every tap: 32768 * sum(taps) back, modulo 2^32.
  const V32 unbias = hn::Set(d, uint32_t(32768u * tap_sum));
  const auto sum = [&](const std::vector<int16_t>& v, int at) {
    return hn::Add(hn::BitCast(d, PairedSum<kPairs>(v.data() + at, tap_pairs)), unbias);
  };
  int x = 0;
  for (; x + lanes16 <= width; x += lanes16) {
    // First the pixels x, x + 2, ..., then x + 1, x + 3, ...
    for (int parity = 0; parity < 2; ++parity) {
      const int at = x + parity;  // the index of column x + parity - half
      const V32 mu1 = sum(split.mu1, at), mu2 = sum(split.mu2, at);
      const V32 xx_lo = sum(split.lo[0], at), xx_hi = sum(split.hi[0], at);
      const V32 yy_lo = sum(split.lo[1], at), yy_hi = sum(split.hi[1], at);
      const V32 xy_lo = sum(split.lo[2], at), xy_hi = sum(split.hi[2], at);
      PixelStatistics(EvenMean(hn::LowerHalf(dh, mu1)), EvenMean(hn::LowerHalf(dh, mu2)),
                      Moment64(hn::LowerHalf(dh, xx_lo), hn::LowerHalf(dh, xx_hi)),
                      Moment64(hn::LowerHalf(dh, yy_lo), hn::LowerHalf(dh, yy_hi)),
                      Moment64(hn::LowerHalf(dh, xy_lo), hn::LowerHalf(dh, xy_hi)), limit, table,
                      num_log, den_log, num_non_log, den_non_log);
      PixelStatistics(EvenMean(hn::UpperHalf(dh, mu1)), EvenMean(hn::UpperHalf(dh, mu2)),
                      Moment64(hn::UpperHalf(dh, xx_lo), hn::UpperHalf(dh, xx_hi)),
                      Moment64(hn::UpperHalf(dh, yy_lo), hn::UpperHalf(dh, yy_hi)),
                      Moment64(hn::UpperHalf(dh, xy_lo), hn::UpperHalf(dh, xy_hi)), limit, table,
                      num_log, den_log, num_non_log, den_non_log);
    }
  }
  return x;
}

// Whether the taps suit PairedStatistics: each below 2^15 (a signed int16),
// their sum at most 2^16 + 1 (so each half's sum stays below 2^32).
bool PairsFit(std::span<const uint16_t> taps) {
  uint32_t total = 0;
  for (const uint16_t t : taps) {
    if (t >= 32768) return false;
    total += t;
  }
  return total <= 65537;
}
#endif  // HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128

// kTaps: the tap count when known at compile time (its loop unrolled), else 0.
template <size_t kTaps>
LevelSums HorizontalStatisticsOf(const MomentLines& lines, int width,
                                 std::span<const uint16_t> taps, double gain_limit) {
  const size_t taps_count = kTaps ? kTaps : taps.size();
  const D32 d;
  const D64 d64;
  const DI di;
  const DF df;
  const int lanes = int(hn::Lanes(d));
  const int half = int(taps.size() / 2);
  const VF limit = hn::Set(df, gain_limit);
  const int64_t* table = reinterpret_cast<const int64_t*>(kLog2TablePadded.data());
  VI num_log = hn::Zero(di), den_log = hn::Zero(di), num_non_log = hn::Zero(di),
     den_non_log = hn::Zero(di);
  bool symmetric = taps_count % 2 == 1;
  for (size_t k = 0; k < taps_count / 2; ++k)
    symmetric = symmetric && taps[k] == taps[taps_count - 1 - k];
  int x = 0;
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
  if constexpr (kTaps >= 5)
    if (PairsFit(taps))
      x = PairedStatistics<kTaps>(lines, width, taps, limit, table, num_log, den_log, num_non_log,
                                  den_non_log);
#endif
  for (; x + lanes <= width; x += lanes) {
    V32 mu1 = hn::Zero(d), mu2 = hn::Zero(d);
    if (symmetric) {
      // t * (a + b) for each pair of equal taps: the same sum modulo 2^32.
#pragma GCC unroll 8
      for (size_t k = 0; k < taps_count / 2; ++k) {
        const int c0 = x - half + int(k), c1 = x + half - int(k);
        const V32 t = hn::Set(d, uint32_t{taps[k]});
        mu1 = hn::Add(mu1, hn::Mul(t, hn::Add(hn::LoadU(d, lines.mu1.at(c0)),
                                              hn::LoadU(d, lines.mu1.at(c1)))));
        mu2 = hn::Add(mu2, hn::Mul(t, hn::Add(hn::LoadU(d, lines.mu2.at(c0)),
                                              hn::LoadU(d, lines.mu2.at(c1)))));
      }
      const V32 t = hn::Set(d, uint32_t{taps[size_t(half)]});
      mu1 = hn::Add(mu1, hn::Mul(t, hn::LoadU(d, lines.mu1.at(x))));
      mu2 = hn::Add(mu2, hn::Mul(t, hn::LoadU(d, lines.mu2.at(x))));
    } else {
      for (size_t k = 0; k < taps_count; ++k) {
        const int c = x - half + int(k);
        const V32 t = hn::Set(d, uint32_t{taps[k]});
        mu1 = hn::Add(mu1, hn::Mul(t, hn::LoadU(d, lines.mu1.at(c))));
        mu2 = hn::Add(mu2, hn::Mul(t, hn::LoadU(d, lines.mu2.at(c))));
      }
    }
    // The moments: the vector from column c holds the even pixels' column for
    // tap k in its even lanes, and the odd pixels' column for tap k - 1 (one
    // to the right) in the same lanes, where MulEven reads.
    V64 xx0 = hn::Zero(d64), yy0 = hn::Zero(d64), xy0 = hn::Zero(d64);
    V64 xx1 = hn::Zero(d64), yy1 = hn::Zero(d64), xy1 = hn::Zero(d64);
#pragma GCC unroll 17
    for (size_t k = 0; k < taps_count; ++k) {
      const int c = x - half + int(k);
      const V32 t = hn::Set(d, uint32_t{taps[k]});
      const V32 vxx = hn::LoadU(d, lines.xx.at(c));
      const V32 vyy = hn::LoadU(d, lines.yy.at(c));
      const V32 vxy = hn::LoadU(d, lines.xy.at(c));
      xx0 = hn::Add(xx0, hn::MulEven(t, vxx));
      yy0 = hn::Add(yy0, hn::MulEven(t, vyy));
      xy0 = hn::Add(xy0, hn::MulEven(t, vxy));
      if (k > 0) {
        const V32 t_left = hn::Set(d, uint32_t{taps[k - 1]});
        xx1 = hn::Add(xx1, hn::MulEven(t_left, vxx));
        yy1 = hn::Add(yy1, hn::MulEven(t_left, vyy));
        xy1 = hn::Add(xy1, hn::MulEven(t_left, vxy));
      }
    }
    if (taps_count > 0) {
      // The last tap's odd pixels: one column past the last vector, which
      // would read past the line's edge columns; its odd lanes instead.
      const int c = x - half + int(taps_count) - 1;
      const V32 t = hn::Set(d, uint32_t{taps[taps_count - 1]});
      xx1 = hn::Add(xx1, hn::MulEven(t, OddLanes(hn::LoadU(d, lines.xx.at(c)))));
      yy1 = hn::Add(yy1, hn::MulEven(t, OddLanes(hn::LoadU(d, lines.yy.at(c)))));
      xy1 = hn::Add(xy1, hn::MulEven(t, OddLanes(hn::LoadU(d, lines.xy.at(c)))));
    }
    PixelStatistics(mu1, mu2, xx0, yy0, xy0, limit, table, num_log, den_log, num_non_log,
                    den_non_log);
    PixelStatistics(OddLanes(mu1), OddLanes(mu2), xx1, yy1, xy1, limit, table, num_log, den_log,
                    num_non_log, den_non_log);
  }
  LevelSums sums;
  sums.num_log = hn::GetLane(hn::SumOfLanes(di, num_log));
  sums.den_log = hn::GetLane(hn::SumOfLanes(di, den_log));
  sums.num_non_log = hn::GetLane(hn::SumOfLanes(di, num_non_log));
  sums.den_non_log = hn::GetLane(hn::SumOfLanes(di, den_non_log));
  // The row's tail: the reference's steps.
  for (; x < width; ++x) add_horizontal_statistic_at(lines, x, taps, gain_limit, sums);
  return sums;
}

LevelSums HorizontalStatistics(const MomentLines& lines, int width, std::span<const uint16_t> taps,
                               double gain_limit) {
  switch (taps.size()) {
    case 17:
      return HorizontalStatisticsOf<17>(lines, width, taps, gain_limit);
    case 9:
      return HorizontalStatisticsOf<9>(lines, width, taps, gain_limit);
    case 5:
      return HorizontalStatisticsOf<5>(lines, width, taps, gain_limit);
    case 3:
      return HorizontalStatisticsOf<3>(lines, width, taps, gain_limit);
    default:
      return HorizontalStatisticsOf<0>(lines, width, taps, gain_limit);
  }
}

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace exactvq::vif::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::vif::cpu {

HWY_EXPORT(HorizontalStatistics);

LevelSums horizontal_statistics(const MomentLines& lines, int width, std::span<const uint16_t> taps,
                                double gain_limit) {
  return HWY_DYNAMIC_DISPATCH(HorizontalStatistics)(lines, width, taps, gain_limit);
}

}  // namespace exactvq::vif::cpu
#endif  // HWY_ONCE
