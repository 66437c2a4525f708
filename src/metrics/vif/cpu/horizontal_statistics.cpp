// The horizontal pass and the per-pixel statistic of vif (the twin of
// vif::horizontal_statistics) as a Highway kernel, one row at a time.
//
// Generally: means in uint32 lanes (the reference's uint32 sums), moments in
// uint64 lanes (MulEven: exact 64-bit products), even and odd columns apart;
// the statistic one pixel a 64-bit lane, each step the reference's (the
// wrapped uint32 differences read as int32, the binary64 gain, residual and
// signal in its order, no fused operations), every branch computed in all
// lanes and selected; lanes whose branch takes no log2 get the argument 2^17,
// whose term is exactly 0; the log2 entries gathered from the pinned table.
//
// On x86, for taps below 2^15 summing to at most 2^16 (every level's), by
// blocks of 512 pixels: first each line's sums by pairs of taps, multiply-adds
// of the lines' 16-bit halves biased to int16 (exact modulo 2^32: each half's
// sum is below 2^32); then the statistic in 32-bit lanes, twice as many pixels
// a vector (docs/spec/vif.md, "The statistic in 32-bit lanes", has the
// bounds): each moment from its halves' sums and its sigma in the pass over
// its high halves, the gain steps on binary64 halves,
// the log2 arguments exact binary64 integers read from their high words;
// last the block's table entries by scalar loads. Every pixel adds integers,
// so the lanes' sums equal the reference's in any order.
#include "metrics/vif/cpu/vif_simd.h"
#include "metrics/vif/cpu/paired_lines.h"
#include "metrics/vif/log2_table.h"

#include <algorithm>
#include <vector>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/vif/cpu/horizontal_statistics.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "metrics/vif/cpu/row_pairs-inl.h"

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
using V16 = hn::Vec<D16>;
using VS32 = hn::Vec<DS32>;

using row_pairs::SplitLine;

// The int32 sums of kPairs pairs of taps (tap_pairs) over the biased halves
// from `at`: lane j the pixel whose first column is at + 2j.
template <size_t kPairs, bool kVnni>
HWY_INLINE VS32 PairedSum(const int16_t* at, const V16* tap_pairs) {
  const D16 d16;
  VS32 sum = hn::Zero(DS32());
#pragma GCC unroll 9
  for (size_t p = 0; p < kPairs; ++p)
    sum = row_pairs::MulAddPairs<kVnni>(hn::LoadU(d16, at + 2 * p), tap_pairs[p], sum);
  return sum;
}

// The same sums of the pixels at + 2j (`even`, with even_pairs) and at + 2j + 1
// (`odd`) from the same loads: the odd pixels' pairs are each one tap earlier
// (odd_pairs, the first (0, t_0)). Only with 32 vector registers (AVX3):
// with 16 the pairs would not stay in registers.
template <size_t kPairs, bool kVnni>
HWY_INLINE void PairedSumsSharingLoads(const int16_t* at, const V16* even_pairs,
                                       const V16* odd_pairs, VS32& even, VS32& odd) {
  const DS32 ds;
  const D16 d16;
  even = hn::Zero(ds);
  odd = hn::Zero(ds);
#pragma GCC unroll 9
  for (size_t p = 0; p < kPairs; ++p) {
    const V16 v = hn::LoadU(d16, at + 2 * p);
    even = row_pairs::MulAddPairs<kVnni>(v, even_pairs[p], even);
    odd = row_pairs::MulAddPairs<kVnni>(v, odd_pairs[p], odd);
  }
}

// ---- The statistic in 32-bit lanes (docs/spec/vif.md, "The statistic in
// 32-bit lanes"): every integer step of a pixel fits 32 bits, the binary64
// gain steps run on the two halves' pixels, and the three log2 arguments are
// binary64 values that hold their integers exactly, read from their high words.

using DI32 = hn::RebindToSigned<D32>;
using VI32 = hn::Vec<DI32>;
using DHI32 = hn::Half<DI32>;

// The high word of binary64 2^17: the log2 argument whose term is 0.
constexpr uint32_t kNoiseVarianceHigh = (1023u + 17u) << 20;

// (a * b + 2^31) >> 32 of every uint32 lane: even lanes' products shifted
// down, odd lanes' high words where they already are.
HWY_INLINE V32 RoundedProductHigh32(V32 a, V32 b) {
  const D32 d;
  const D64 d64;
  const V64 round = hn::Set(d64, uint64_t{0x80000000u});
  const V64 even = hn::ShiftRight<32>(hn::Add(hn::MulEven(a, b), round));
  const V64 odd = hn::Add(hn::MulEven(OddLanes(a), OddLanes(b)), round);
  return hn::OddEven(hn::BitCast(d, odd), hn::BitCast(d, even));
}

// uint32((hi * 2^16 + lo + 32768) >> 16) of the exact sums lo, hi < 2^32 -
// 32768: hi plus lo's rounded carry, modulo 2^32.
HWY_INLINE V32 Moment32(V32 lo, V32 hi) {
  const D32 d;
  return hn::Add(hi, hn::ShiftRight<16>(hn::Add(lo, hn::Set(d, 32768u))));
}

// The high words of two binary64 vectors (lanes of lo, then of hi), as uint32
// lanes in the order of the int32 lanes they were widened from.
HWY_INLINE V32 HighWords(VF lo, VF hi) {
  const D32 d;
  return hn::ConcatOdd(d, hn::BitCast(d, hi), hn::BitCast(d, lo));
}

// 2048 * log2 of a binary64 integer v >= 2^15 from its high word: the table
// entry at the top 16 bits (the leading one and 15 fraction bits), looked up
// apart (AddEntries), plus 2048 * (E - 1023 - 15) with E the biased exponent,
// whose sums the caller scales by 2048 once a block, subtracting the bias.
HWY_INLINE V32 Log2Index(V32 high) {
  const D32 d;
  return hn::And(hn::ShiftRight<5>(high), hn::Set(d, 0x7FFFu));
}
HWY_INLINE VI32 BiasedExponent(V32 high) { return hn::BitCast(DI32(), hn::ShiftRight<20>(high)); }

// What each pixel's denominator term subtracts from T[index] + 2048 * E, in
// units of 2048: the bias and the table's 2^15 (1023 + 15), and log2 of
// sigma_n^2 (17).
constexpr int32_t kDenExponentBias = 1023 + 15 + 17;

// The statistic of Lanes(D32) pixels from their sigmas (sigma2_sq before its
// clamp at 0), as uint32 lanes. num_exponents and den_exponents gather the
// biased exponents of the log2 arguments (signal's less noise's; the
// denominator's, every lane's, to be less kDenExponentBias each).
HWY_INLINE void PixelStatistics32(V32 sigma1_sq_u, V32 sigma2_sq_u, V32 sigma12_u, VF gain_limit,
                                  uint32_t* den_at, uint32_t* signal_at, uint32_t* noise_at,
                                  VI32& num_exponents, VI32& den_exponents, VI32& den_non_log,
                                  VI& num_non_log) {
  const D32 d;
  const DI32 di;
  const DHI32 dhi;
  const DI di64;
  const DF df;
  const VI32 zero = hn::Zero(di);
  const VI32 sigma1_sq = hn::BitCast(di, sigma1_sq_u);
  const VI32 sigma2_sq = hn::Max(hn::BitCast(di, sigma2_sq_u), zero);
  const VI32 sigma12 = hn::BitCast(di, sigma12_u);

  const auto no_log = hn::Lt(sigma1_sq, hn::Set(di, int32_t{kNoiseVariance}));
  if (!hn::AllFalse(di, no_log)) {
    const VI32 flat = hn::IfThenElseZero(no_log, sigma2_sq);
    num_non_log = hn::Add(num_non_log, hn::Add(hn::PromoteTo(di64, hn::LowerHalf(dhi, flat)),
                                               hn::PromoteTo(di64, hn::UpperHalf(dhi, flat))));
    den_non_log = hn::Sub(den_non_log, hn::VecFromMask(di, no_log));  // -1 a true lane
    if (hn::AllTrue(di, no_log)) {
      // Every lane's arguments 2^17 (index 0, biased exponent 1023 + 17):
      // den_log's term 0, signal and noise cancel.
      hn::Store(hn::Zero(d), d, den_at);
      hn::Store(hn::Zero(d), d, signal_at);
      hn::Store(hn::Zero(d), d, noise_at);
      den_exponents = hn::Add(den_exponents, hn::Set(di, 1023 + 17));
      return;
    }
  }
  const VF noise_variance = hn::Set(df, double(kNoiseVariance));
  const VF s1_lo = hn::PromoteTo(df, hn::LowerHalf(dhi, sigma1_sq));
  const VF s1_hi = hn::PromoteTo(df, hn::UpperHalf(dhi, sigma1_sq));
  // sigma_n^2 + sigma1_sq: integers below 2^32, exact.
  const V32 den_arg =
      hn::IfThenElse(hn::RebindMask(d, no_log), hn::Set(d, kNoiseVarianceHigh),
                     HighWords(hn::Add(s1_lo, noise_variance), hn::Add(s1_hi, noise_variance)));
  hn::Store(Log2Index(den_arg), d, den_at);
  den_exponents = hn::Add(den_exponents, BiasedExponent(den_arg));

  const auto with_gain =
      hn::AndNot(no_log, hn::And(hn::Gt(sigma12, zero), hn::Gt(sigma2_sq, zero)));
  if (hn::AllFalse(di, with_gain)) {
    hn::Store(hn::Zero(d), d, signal_at);
    hn::Store(hn::Zero(d), d, noise_at);
    return;
  }
  const double eps = 65536 * 1.0e-10;
  VF signal[2], noise[2];
  const VF s1[2] = {s1_lo, s1_hi};
  const VF s2[2] = {hn::PromoteTo(df, hn::LowerHalf(dhi, sigma2_sq)),
                    hn::PromoteTo(df, hn::UpperHalf(dhi, sigma2_sq))};
  const VF s12[2] = {hn::PromoteTo(df, hn::LowerHalf(dhi, sigma12)),
                     hn::PromoteTo(df, hn::UpperHalf(dhi, sigma12))};
  for (int h = 0; h < 2; ++h) {
    VF gain = hn::Div(s12[h], hn::Add(s1[h], hn::Set(df, eps)));
    // max(trunc(v), 0) is trunc(max(v, 0)); v <= sigma2_sq < 2^31 where kept.
    // The residual and the gain part stay binary64 integers, as exact as the
    // reference's int32 and int64 (below 2^31 and 2^46), and so their sums.
    const VF residual = hn::Trunc(hn::Max(hn::Sub(s2[h], hn::Mul(gain, s12[h])), hn::Zero(df)));
    // x86's min: gain < limit ? gain : limit, the reference's choice.
    gain = hn::Min(gain, gain_limit);
    noise[h] = hn::Add(residual, noise_variance);
    signal[h] = hn::Add(hn::Trunc(hn::Mul(hn::Mul(gain, gain), s1[h])), noise[h]);
  }
  const auto gain_lanes = hn::RebindMask(d, with_gain);
  // Lanes without the gain: both arguments' high words 0 (index 0, exponent
  // 0), whose terms cancel.
  const V32 signal_arg = hn::IfThenElseZero(gain_lanes, HighWords(signal[0], signal[1]));
  const V32 noise_arg = hn::IfThenElseZero(gain_lanes, HighWords(noise[0], noise[1]));
  hn::Store(Log2Index(signal_arg), d, signal_at);
  hn::Store(Log2Index(noise_arg), d, noise_at);
  num_exponents =
      hn::Add(num_exponents, hn::Sub(BiasedExponent(signal_arg), BiasedExponent(noise_arg)));
}

// The table entries of a block's log2 arguments, added: den += sum of
// T[den_at[i]], signal += sum of T[signal_at[i]], noise += sum of
// T[noise_at[i]]. Scalar loads: on some CPUs (AMD Zen 4) a SIMD gather of the
// entries costs more, even dword gathers of 16 entries, and a table of bytes
// beside the arithmetic part of each entry (half the table's size) gained
// nothing. Called a vector at a time, between the statistics of the next
// (vector arithmetic), so that the two overlap (moved into the multiply-add
// passes instead, they cost more); the loop kept scalar by an empty asm over
// its indices (64-bit: no extensions).
HWY_INLINE void AddEntries(const uint32_t* den_at, const uint32_t* signal_at,
                           const uint32_t* noise_at, int n, int64_t& den, int64_t& signal,
                           int64_t& noise) {
  const uint16_t* table = kLog2Table.data();
  for (int i = 0; i < n; ++i) {
    uint64_t a = den_at[i], b = signal_at[i], c = noise_at[i];
    // Opaque to the compiler: keeps the loop scalar (no gathers).
    asm("" : "+r"(a), "+r"(b), "+r"(c));
    den += table[a];
    signal += table[b];
    noise += table[c];
  }
}

// The vectors of Lanes(D16) pixels from 0 (whole vectors only) by pairs of
// taps (kVnni: row_pairs::MulAddPairs) from the row's biased halves (the
// taps' half-width's edge columns first, then at least Lanes(D16) entries
// past the last edge column, zero); returns the first pixel left.
template <size_t kTaps, bool kVnni>
int PairedStatisticsOf(const PairedLines& split, int width, std::span<const uint16_t> taps,
                       VF limit, VI& num_log, VI& den_log, VI& num_non_log, VI& den_non_log,
                       int64_t& num_log_entries, int64_t& den_log_entries) {
  constexpr size_t kPairs = (kTaps + 1) / 2;
  const D32 d;
  const D16 d16;
  const int lanes16 = int(hn::Lanes(d16));
  // An odd number of taps: the even pixels' pairs (t_2p, t_2p+1) end with
  // (t_last, 0), the odd pixels' (t_2p-1, t_2p) start with (0, t_0).
  static_assert(kTaps % 2 == 1);
  V16 even_pairs[kPairs], odd_pairs[kPairs];
  uint32_t tap_sum = 0;
  for (size_t p = 0; p < kPairs; ++p) {
    const uint32_t second = 2 * p + 1 < kTaps ? taps[2 * p + 1] : 0;
    const uint32_t before = p > 0 ? taps[2 * p - 1] : 0;
    even_pairs[p] = hn::BitCast(d16, hn::Set(d, uint32_t{taps[2 * p]} | second << 16));
    odd_pairs[p] = hn::BitCast(d16, hn::Set(d, before | uint32_t{taps[2 * p]} << 16));
    tap_sum += taps[2 * p] + second;
  }
  // Each sum read -32768 for every tap: 32768 * sum(taps) back, modulo 2^32.
  const V32 unbias = hn::Set(d, uint32_t(32768u * tap_sum));
  const auto sum = [&](const std::vector<int16_t>& v, int at) {
    return hn::Add(hn::BitCast(d, PairedSum<kPairs, kVnni>(v.data() + at, even_pairs)), unbias);
  };
  const DI32 di32;
  const DHI32 dhi;
  const DI di64;
  // By blocks: first each line's horizontal sums into `block` (one line at a
  // time keeps the multiply-adds' operands in registers), then the statistic
  // of the block's pixels, each lane's int32 sums widened at its end.
  // Pixels; at most 256 vectors (SSE4) of each int32 sum. 1024 beat 512 and
  // 256 (fewer blocks a row; the block stays 40 KiB of stack).
  constexpr int kBlock = 1024;
  const int lanes = int(hn::Lanes(d));
  HWY_ALIGN uint32_t block[8][kBlock];
  HWY_ALIGN uint32_t den_at[kBlock], signal_at[kBlock], noise_at[kBlock];
  const std::vector<int16_t>* sources[8] = {&split.mu1,   &split.mu2,   &split.lo[0], &split.hi[0],
                                            &split.lo[1], &split.hi[1], &split.lo[2], &split.hi[2]};
  int64_t den_entries = 0, signal_entries = 0, noise_entries = 0;
  int x = 0;
  while (x + lanes16 <= width) {
    const int n = std::min(kBlock, (width - x) / lanes16 * lanes16);
    // Line m's sums into block[m]; a moment's high halves (kMoment) joined
    // with its low halves' sums, block[m - 1], into the moment (Moment32),
    // less the product of its means (block[a] and block[b]): the sigma.
    const auto line_sums = [&]<bool kMoment>(int m, int a, int b) {
      uint32_t* out = block[m];
      const uint32_t* low = block[m - (kMoment ? 1 : 0)];
      const std::vector<int16_t>& source = *sources[m];
      const auto put = [&](V32 v, int at) {
        if constexpr (kMoment)
          v = hn::Sub(Moment32(hn::Load(d, low + at), v),
                      RoundedProductHigh32(hn::Load(d, block[a] + at), hn::Load(d, block[b] + at)));
        hn::Store(v, d, out + at);
      };
      // Lanes j: first the pixels x + 2j, then x + 1 + 2j.
      for (int i = 0; i < n; i += lanes16) {
#if HWY_TARGET <= HWY_AVX3
        VS32 even, odd;
        PairedSumsSharingLoads<kPairs, kVnni>(source.data() + x + i, even_pairs, odd_pairs, even,
                                              odd);
        put(hn::Add(hn::BitCast(d, even), unbias), i);
        put(hn::Add(hn::BitCast(d, odd), unbias), i + lanes);
#else
        put(sum(source, x + i), i);
        put(sum(source, x + i + 1), i + lanes);
#endif
      }
    };
    for (int m = 0; m < 3; ++m) line_sums.template operator()<false>(m, 0, 0);
    line_sums.template operator()<true>(3, 0, 0);
    line_sums.template operator()<false>(4, 0, 0);
    line_sums.template operator()<true>(5, 1, 1);
    line_sums.template operator()<false>(6, 0, 0);
    line_sums.template operator()<true>(7, 0, 1);
    VI32 num_exponents = hn::Zero(di32), den_exponents = hn::Zero(di32),
         den_non_log32 = hn::Zero(di32);
    for (int i = 0; i < n; i += lanes) {
      PixelStatistics32(hn::Load(d, block[3] + i), hn::Load(d, block[5] + i),
                        hn::Load(d, block[7] + i), limit, den_at + i, signal_at + i, noise_at + i,
                        num_exponents, den_exponents, den_non_log32, num_non_log);
      if (i > 0)
        AddEntries(den_at + i - lanes, signal_at + i - lanes, noise_at + i - lanes, lanes,
                   den_entries, signal_entries, noise_entries);
    }
    AddEntries(den_at + n - lanes, signal_at + n - lanes, noise_at + n - lanes, lanes, den_entries,
               signal_entries, noise_entries);
    const auto widen = [&](VI32 v) {
      return hn::Add(hn::PromoteTo(di64, hn::LowerHalf(dhi, v)),
                     hn::PromoteTo(di64, hn::UpperHalf(dhi, v)));
    };
    // Each lane's exponent sums stay below 2^19 (at most 256 vectors, on SSE4,
    // of at most 1023 + 32 each).
    num_log = hn::Add(num_log, hn::ShiftLeft<11>(widen(num_exponents)));
    den_log = hn::Add(den_log, hn::ShiftLeft<11>(widen(den_exponents)));
    den_entries -= int64_t{2048 * kDenExponentBias} * n;
    den_non_log = hn::Add(den_non_log, widen(den_non_log32));
    x += n;
  }
  den_log_entries += den_entries;
  num_log_entries += signal_entries - noise_entries;
  return x;
}

// PairedStatisticsOf from the row's uint32 lines, split first.
template <size_t kTaps, bool kVnni>
int PairedStatistics(const MomentLines& lines, int width, std::span<const uint16_t> taps, VF limit,
                     VI& num_log, VI& den_log, VI& num_non_log, VI& den_non_log,
                     int64_t& num_log_entries, int64_t& den_log_entries) {
  const int lanes16 = int(hn::Lanes(D16()));
  const int half = int(kTaps / 2);
  thread_local PairedLines split;
  const int count = width + 2 * half;
  SplitLine(lines.mu1, -half, count, lanes16, split.mu1, nullptr);
  SplitLine(lines.mu2, -half, count, lanes16, split.mu2, nullptr);
  const EdgeLine* moments[3] = {&lines.xx, &lines.yy, &lines.xy};
  for (int m = 0; m < 3; ++m)
    SplitLine(*moments[m], -half, count, lanes16, split.lo[m], &split.hi[m]);
  return PairedStatisticsOf<kTaps, kVnni>(split, width, taps, limit, num_log, den_log, num_non_log,
                                          den_non_log, num_log_entries, den_log_entries);
}

// Whether the taps suit PairedStatistics: each below 2^15 (a signed int16),
// their sum at most 2^16 (so each half's sum stays below 2^32 - 32768, as
// Moment32 needs).
bool PairsFit(std::span<const uint16_t> taps) {
  uint32_t total = 0;
  for (const uint16_t t : taps) {
    if (t >= 32768) return false;
    total += t;
  }
  return total <= 65536;
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
  int64_t num_log_entries = 0, den_log_entries = 0;  // PairedStatistics' table entries
  int x = 0;
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
  if constexpr (kTaps >= 5)
    if (PairsFit(taps)) {
      x = row_pairs::WithVnniChoice([&]<bool kVnni>() {
        return PairedStatistics<kTaps, kVnni>(lines, width, taps, limit, num_log, den_log,
                                              num_non_log, den_non_log, num_log_entries,
                                              den_log_entries);
      });
    }
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
  sums.num_log = hn::GetLane(hn::SumOfLanes(di, num_log)) + num_log_entries;
  sums.den_log = hn::GetLane(hn::SumOfLanes(di, den_log)) + den_log_entries;
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

#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
// PairedStatisticsOf with kVnni where the CPU has it.
template <size_t kTaps>
int PairedStatisticsOfTaps(const PairedLines& split, int width, std::span<const uint16_t> taps,
                           VF limit, VI& num_log, VI& den_log, VI& num_non_log, VI& den_non_log,
                           int64_t& num_log_entries, int64_t& den_log_entries) {
  return row_pairs::WithVnniChoice([&]<bool kVnni>() {
    return PairedStatisticsOf<kTaps, kVnni>(split, width, taps, limit, num_log, den_log,
                                            num_non_log, den_non_log, num_log_entries,
                                            den_log_entries);
  });
}
#endif

// paired_horizontal_statistics: PairedStatisticsOf's whole vectors where the
// target and taps have it, then the rest of the row by the reference's steps
// on the columns it reads, joined back from their halves into `scratch`.
LevelSums PairedHorizontalStatistics(const PairedLines& split, int width,
                                     std::span<const uint16_t> taps, double gain_limit,
                                     MomentLines& scratch) {
  const int half = int(taps.size() / 2);
  int x = 0;
  LevelSums sums;
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
  if (PairsFit(taps) && (taps.size() == 17 || taps.size() == 9 || taps.size() == 5)) {
    const DI di;
    const VF limit = hn::Set(DF(), gain_limit);
    VI num_log = hn::Zero(di), den_log = hn::Zero(di), num_non_log = hn::Zero(di),
       den_non_log = hn::Zero(di);
    int64_t num_log_entries = 0, den_log_entries = 0;
    const auto run = [&](auto of_taps) {
      x = of_taps(split, width, taps, limit, num_log, den_log, num_non_log, den_non_log,
                  num_log_entries, den_log_entries);
    };
    if (taps.size() == 17)
      run(PairedStatisticsOfTaps<17>);
    else if (taps.size() == 9)
      run(PairedStatisticsOfTaps<9>);
    else
      run(PairedStatisticsOfTaps<5>);
    sums.num_log = hn::GetLane(hn::SumOfLanes(di, num_log)) + num_log_entries;
    sums.den_log = hn::GetLane(hn::SumOfLanes(di, den_log)) + den_log_entries;
    sums.num_non_log = hn::GetLane(hn::SumOfLanes(di, num_non_log));
    sums.den_non_log = hn::GetLane(hn::SumOfLanes(di, den_non_log));
  }
#endif
  if (x < width) {
    EdgeLine* const moments[3] = {&scratch.xx, &scratch.yy, &scratch.xy};
    const auto value = [](int16_t biased) { return uint32_t(uint16_t(biased)) ^ 0x8000u; };
    for (int c = x - half; c < width + half; ++c) {
      const size_t i = size_t(c + half);
      scratch.mu1[c] = value(split.mu1[i]);
      scratch.mu2[c] = value(split.mu2[i]);
      for (int m = 0; m < 3; ++m)
        (*moments[m])[c] = value(split.hi[m][i]) << 16 | value(split.lo[m][i]);
    }
  }
  for (; x < width; ++x) add_horizontal_statistic_at(scratch, x, taps, gain_limit, sums);
  return sums;
}

}  // namespace exactvq::vif::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::vif::cpu {

HWY_EXPORT(HorizontalStatistics);
HWY_EXPORT(PairedHorizontalStatistics);

LevelSums paired_horizontal_statistics(const PairedLines& lines, int width,
                                       std::span<const uint16_t> taps, double gain_limit,
                                       MomentLines& scratch) {
  return HWY_DYNAMIC_DISPATCH(PairedHorizontalStatistics)(lines, width, taps, gain_limit, scratch);
}

LevelSums horizontal_statistics(const MomentLines& lines, int width, std::span<const uint16_t> taps,
                                double gain_limit) {
  return HWY_DYNAMIC_DISPATCH(HorizontalStatistics)(lines, width, taps, gain_limit);
}

}  // namespace exactvq::vif::cpu
#endif  // HWY_ONCE
