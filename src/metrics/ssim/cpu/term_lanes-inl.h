// The binary64 term and its 2^-64 fixed-point pieces on vector lanes, shared by
// the term kernels. Included inside a Highway target namespace, once per target.
#if defined(EXACTVQ_CPU_TERM_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef EXACTVQ_CPU_TERM_LANES_INL_H_
#undef EXACTVQ_CPU_TERM_LANES_INL_H_
#else
#define EXACTVQ_CPU_TERM_LANES_INL_H_
#endif

#include <hwy/highway.h>

#include <type_traits>

#include "metrics/ssim/definition.h"
#include "metrics/ssim/term.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Integers below 2^52 in uint64 lanes to binary64, exactly: placed in the
// significand of 2^52, which is then subtracted.
template <class DF, class VU>
HWY_INLINE hn::Vec<DF> ExactToDouble(DF df, VU v) {
  const hn::RebindToUnsigned<DF> du;
  return hn::Sub(hn::BitCast(df, hn::Or(v, hn::Set(du, 0x4330000000000000ull))),
                 hn::Set(df, 0x1p52));
}

// definition.h's term on lanes, operation for operation (Mul then Add, never MulAdd).
template <class DF, class V = hn::Vec<DF>>
HWY_INLINE V TermLanes(DF df, V wd, V mux, V muy, V x2, V xy, V y2, const ssim::TermConstants& k) {
  V c1, c2, term;
  EXACTVQ_SSIM_WINDOW_CONSTANTS(hn::Mul, hn::Set(df, k.mm_k1), hn::Set(df, k.mm_k2), wd, c1, c2);
  EXACTVQ_SSIM_TERM(V, hn::Mul, hn::Add, hn::Sub, hn::Div, hn::Set(df, 2.0), wd, c1, c2, mux, muy,
                    x2, xy, y2, term);
  return term;
}

// The same term when wd, c1 and c2 are the same in every lane (interior
// columns: wd = 256 * row weight), formed once outside the loop with the same
// operations, so each lane's bits are those of TermLanes.
template <class DF, class V = hn::Vec<DF>>
HWY_INLINE V TermLanesFixedWeight(DF df, V wd, V c1, V c2, V mux, V muy, V x2, V xy, V y2) {
  V term;
  EXACTVQ_SSIM_TERM(V, hn::Mul, hn::Add, hn::Sub, hn::Div, hn::Set(df, 2.0), wd, c1, c2, mux, muy,
                    x2, xy, y2, term);
  return term;
}

// The interior columns [begin, end) of a row of n windows keep the whole row of
// taps (weight 256 each), so wd, c1 and c2 are the same in every lane there:
// formed once, by TermLanes's operations, hence its bits (for
// TermLanesFixedWeight). Scalars: a struct cannot hold SVE's sizeless vectors.
struct InteriorColumns {
  size_t begin = 0, end = 0;
  double wd, c1, c2;

  InteriorColumns(const uint32_t* column_weight, uint32_t row_weight, size_t n,
                  const ssim::TermConstants& k)
      : end(n), wd(double(256 * row_weight)), c1((k.mm_k1 * wd) * wd), c2((k.mm_k2 * wd) * wd) {
    while (begin < n && column_weight[begin] != 256) ++begin;
    while (end > begin && column_weight[end - 1] != 256) --end;
  }
  // Whether lanes [i, i + lanes) are all interior.
  bool holds(size_t i, size_t lanes) const { return i >= begin && i + lanes <= end; }
};

#if HWY_TARGET != HWY_SCALAR
// Integers below 2^31 in 32-bit lanes (the lower or upper half of v) to
// binary64: the hardware conversion, exact.
template <class DF, class VI32>
HWY_INLINE hn::Vec<DF> HalfToDouble(DF df, VI32 v, int upper) {
  const hn::Rebind<int32_t, DF> dh;
  const hn::Twice<decltype(dh)> d32;
  return hn::PromoteTo(
      df, upper ? hn::UpperHalf(dh, hn::BitCast(d32, v)) : hn::LowerHalf(dh, hn::BitCast(d32, v)));
}

// Integers below 2^32 in 32-bit lanes (the lower or upper half of v, unsigned)
// to binary64, exactly: AVX-512 converts unsigned lanes directly; elsewhere
// they are widened to 64 bits and placed in the significand of 2^52.
template <class DF, class VU32>
HWY_INLINE hn::Vec<DF> U32HalfToDouble(DF df, VU32 v, int upper) {
  const hn::DFromV<VU32> du32;
  const hn::Half<decltype(du32)> dh;
  const auto h = upper ? hn::UpperHalf(dh, v) : hn::LowerHalf(dh, v);
#if HWY_TARGET <= HWY_AVX3
  if constexpr (hn::MaxLanes(df) == 8) return hn::Vec<DF>{_mm512_cvtepu32_pd(h.raw)};
#endif
  return ExactToDouble(df, hn::PromoteTo(hn::RebindToUnsigned<DF>(), h));
}
#endif

#if HWY_TARGET != HWY_SCALAR
// Lanes(df) unsigned 32-bit integers at p to binary64, exactly (kSigned: each
// below 2^31, the signed hardware conversion).
template <bool kSigned, class DF>
HWY_INLINE hn::Vec<DF> LoadU32ToDouble(DF df, const uint32_t* HWY_RESTRICT p) {
  if constexpr (kSigned) {
    const hn::Rebind<int32_t, DF> di32;
    return hn::PromoteTo(df, hn::LoadU(di32, reinterpret_cast<const int32_t*>(p)));
  } else {
    const hn::Rebind<uint32_t, DF> du32;
    const auto v = hn::LoadU(du32, p);
#if HWY_TARGET <= HWY_AVX3
    if constexpr (hn::MaxLanes(df) == 8) return hn::Vec<DF>{_mm512_cvtepu32_pd(v.raw)};
#endif
    return ExactToDouble(df, hn::PromoteTo(hn::RebindToUnsigned<DF>(), v));
  }
}
#endif

// The `exact` sum's fast path for lanes of terms. For |term| <
// 2^19 (every term the spec's bounds allow is below 2^17 in magnitude):
//   t32 = term * 2^32 (exact: a power of two, no overflow or underflow);
//   y = t32 + M, M = 1.5 * 2^52: |t32| < 2^51 puts y in [2^52, 2^53), where the
//       spacing is 1, so y - M = A = round_half_even(t32), an integer < 2^51,
//       and A = bits(y) - bits(M) (bits are linear within one binade);
//   r = t32 - A: exact (A is a multiple of t32's spacing, |r| <= 1/2);
//   z = r * 2^32 + M: exact scaling, then |r * 2^32| <= 2^31 rounds to the
//       integer B = round_half_even(r * 2^64 / 2^32) = bits(z) - bits(M).
// term * 2^64 = A * 2^32 + r * 2^32, and A * 2^32 is even, so
// round_half_even(term * 2^64) = A * 2^32 + B. Sums of bits(y) and bits(z) wrap
// modulo 2^64 in the accumulators a and b; FixedFastTotal takes out
// count * bits(M) and forms the 128-bit sum.

// Whether every lane of `term` takes the fast path (|term| < 2^19).
template <class DF>
HWY_INLINE bool FixedFastFits(DF df, hn::Vec<DF> term) {
  return hn::AllTrue(df, hn::Lt(hn::Abs(term), hn::Set(df, 0x1p19)));
}

template <class DF, class VU>
HWY_INLINE void AddFixedFast(DF df, hn::Vec<DF> term, VU& a, VU& b) {
  const hn::RebindToUnsigned<DF> du;
  const auto magic = hn::Set(df, 0x1.8p52);
  const auto t32 = hn::Mul(term, hn::Set(df, 0x1p32));
  const auto y = hn::Add(t32, magic);
  const auto r = hn::Sub(t32, hn::Sub(y, magic));
  const auto z = hn::Add(hn::Mul(r, hn::Set(df, 0x1p32)), magic);
  a = hn::Add(a, hn::BitCast(du, y));
  b = hn::Add(b, hn::BitCast(du, z));
}

// Sum over the lanes of A * 2^32 + B, in 128 bits, after `vectors` vectors were
// added. Exact while each lane's sum of A (|A| < 2^51) fits 63 bits: up to 2^11
// vectors.
template <class DF, class VU>
HWY_INLINE ssim::int128 FixedFastTotal(DF df, VU a_acc, VU b_acc, uint64_t vectors) {
  const hn::RebindToUnsigned<DF> du;
  (void)df;
  HWY_ALIGN uint64_t a[hn::MaxLanes(du)], b[hn::MaxLanes(du)];
  hn::Store(a_acc, du, a);
  hn::Store(b_acc, du, b);
  const uint64_t bias = vectors * 0x4338000000000000ull;  // count * bits(M), modulo 2^64
  ssim::int128 sum = 0;
  for (size_t l = 0; l < hn::Lanes(du); ++l)
    sum += ssim::int128{int64_t(a[l] - bias)} * (ssim::int128{1} << 32) +
           ssim::int128{int64_t(b[l] - bias)};
  return sum;
}

// Adds round_half_even(term * 2^64) of each lane (|term| < 2^32) to three
// signed 64-bit accumulators holding bits 0-31, 32-63 and 64 and up. Rounded
// in integer lanes from the term's sign, exponent and significand.
template <class DF, class VI>
HWY_INLINE void AddFixedLanes(DF df, hn::Vec<DF> term, VI& acc_lo, VI& acc_mid, VI& acc_hi) {
  (void)df;
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const auto zero_i = hn::Zero(di);
  const auto one = hn::Set(du, 1);
  const auto bits = hn::BitCast(du, term);
  const auto biased = hn::And(hn::ShiftRight<52>(bits), hn::Set(du, 0x7ff));
  // term = significand * 2^(biased - 1075), so q = significand * 2^shift, rounded.
  const auto significand =
      hn::Or(hn::And(bits, hn::Set(du, (uint64_t{1} << 52) - 1)),
             hn::IfThenElseZero(hn::Ne(biased, hn::Zero(du)), hn::Set(du, uint64_t{1} << 52)));
  const auto shift = hn::Sub(hn::BitCast(di, biased), hn::Set(di, 1075 - 64));
  // Exactly one of left, right is non-zero; right >= 55 leaves nothing.
  const auto left = hn::BitCast(du, hn::Max(shift, zero_i));
  const auto right = hn::BitCast(du, hn::Min(hn::Max(hn::Neg(shift), zero_i), hn::Set(di, 63)));
  const auto truncated = hn::Shr(hn::Shl(significand, left), right);  // bits 0-63, unrounded
  // Round half to even: up when rest > half, or rest == half and q is odd.
  const auto unit = hn::Shl(one, right);
  const auto rest = hn::And(significand, hn::Sub(unit, one));
  const auto half = hn::ShiftRight<1>(unit);
  const auto round_up = hn::And(
      hn::Gt(hn::BitCast(di, hn::Add(rest, hn::And(truncated, one))), hn::BitCast(di, half)),
      hn::Ne(hn::BitCast(di, right), zero_i));
  const auto low64 = hn::Sub(truncated, hn::BitCast(du, hn::VecFromMask(di, round_up)));
  // Bits 64 and up: significand >> (64 - shift) when shift > 0, else nothing.
  const auto hi_shift = hn::BitCast(du, hn::Min(hn::Sub(hn::Set(di, 64), shift), hn::Set(di, 63)));
  const auto hi = hn::BitCast(di, hn::Shr(significand, hi_shift));
  const auto lo = hn::BitCast(di, hn::And(low64, hn::Set(du, 0xffffffffull)));
  const auto mid = hn::BitCast(di, hn::ShiftRight<32>(low64));
  // Negative terms add -piece, as (piece ^ -1) - (-1).
  const auto negative = hn::VecFromMask(di, hn::Lt(hn::BitCast(di, bits), zero_i));
  acc_lo = hn::Add(acc_lo, hn::Sub(hn::Xor(lo, negative), negative));
  acc_mid = hn::Add(acc_mid, hn::Sub(hn::Xor(mid, negative), negative));
  acc_hi = hn::Add(acc_hi, hn::Sub(hn::Xor(hi, negative), negative));
}

// lo + mid * 2^32 + hi * 2^64 over all lanes, in 128 bits.
template <class DI, class VI>
HWY_INLINE ssim::int128 FixedLanesTotal(DI di, VI acc_lo, VI acc_mid, VI acc_hi) {
  HWY_ALIGN int64_t lo[hn::MaxLanes(di)], mid[hn::MaxLanes(di)], hi[hn::MaxLanes(di)];
  hn::Store(acc_lo, di, lo);
  hn::Store(acc_mid, di, mid);
  hn::Store(acc_hi, di, hi);
  ssim::int128 sum = 0;
  for (size_t l = 0; l < hn::Lanes(di); ++l)
    sum += ssim::int128{lo[l]} + ssim::int128{mid[l]} * (ssim::int128{1} << 32) +
           ssim::int128{hi[l]} * (ssim::int128{1} << 64);
  return sum;
}

// The `exact` sum of lanes of terms: the fast path (AddFixedFast) for vectors
// whose terms all fit it, the general one (AddFixedLanes) for any other. Its
// five vector accumulators (fast a, b; general lo, mid, hi) are the caller's
// local variables, all starting at zero: on SVE and RVV a vector has no size
// known to the compiler, so no struct or class may hold one (a member would not
// compile there).
struct FixedSumCounts {
  uint64_t fast_vectors = 0;  // vectors in the fast accumulators since the last flush
  ssim::int128 flushed = 0;   // fast sums taken out before their lanes could overflow
};

template <class DF, class VU, class VI>
HWY_INLINE void FixedSumAdd(DF df, hn::Vec<DF> term, VU& fast_a, VU& fast_b, VI& lo, VI& mid,
                            VI& hi, FixedSumCounts& counts) {
  constexpr uint64_t kFlushVectors = 2048;
  if (HWY_LIKELY(FixedFastFits(df, term))) {
    AddFixedFast(df, term, fast_a, fast_b);
    if (HWY_UNLIKELY(++counts.fast_vectors == kFlushVectors)) {
      counts.flushed += FixedFastTotal(df, fast_a, fast_b, counts.fast_vectors);
      fast_a = hn::Zero(hn::RebindToUnsigned<DF>());
      fast_b = fast_a;
      counts.fast_vectors = 0;
    }
  } else {
    AddFixedLanes(df, term, lo, mid, hi);
  }
}

template <class DF, class VU, class VI>
HWY_INLINE ssim::int128 FixedSumTotal(DF df, VU fast_a, VU fast_b, VI lo, VI mid, VI hi,
                                      const FixedSumCounts& counts) {
  return counts.flushed + FixedFastTotal(df, fast_a, fast_b, counts.fast_vectors) +
         FixedLanesTotal(hn::RebindToSigned<DF>(), lo, mid, hi);
}

}  // namespace exactvq::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
