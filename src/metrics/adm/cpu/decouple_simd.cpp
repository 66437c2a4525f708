// ADM's scale-0 decoupling row (decouple.h) as a Highway kernel in int32 lanes.
// - The angle test's dot product and magnitudes are the reference's integers
//   (int32 products of int16; a sum wraps only at exactly 2^31, all four
//   values -32768, and is mended after the float conversion, or converted as
//   unsigned for the magnitudes on AVX-512). They are rounded to float as C's
//   conversion does, then compared: the reference's scaling by 1/4096 moves
//   every operand and product by a power of two, so it changes no comparison
//   and is left out; the test d * d >= (cos2 * o) * t is made in float where
//   its margin decides it (AngleInFloat), else read off the sign of the
//   binary64 difference (exact in sign), narrowed to float.
// - The gain k = (recip * t + 2^14) >> 15 needs 46 bits; recip is split into
//   its high and low 16 bits, recip = 2^16 rh + rl, so that k is
//   2 rh t + ((rl t + 2^14) >> 15), exactly, with every term in int32.
// - The enhancement multiplies the restored value by the gain limit; for an
//   integer limit (the options' default) the product is an exact int32 and the
//   truncations of the reference change nothing; any other limit runs the
//   product in binary64 lanes as the reference does.
// - With the limit 1 (VMAF v1.0.16's) the enhancement min(rst, t) (o > 0) or
//   max(rst, t) (o < 0) is rst itself for every pair of int16 o, t, so it and
//   the angle test are skipped. Where k = 0 or o = 0 it does not apply. For
//   o > 0, t > 0: k <= (R t + 2^14) / 2^15 with R = floor(2^30 / o), so
//   k o <= 2^15 t + o / 2 < 2^15 t + 2^14, and rst = (k o + 2^14) >> 15 <= t.
//   For o < 0, t < 0 the same bound on k |o| gives rst >= t. Other signs make
//   k_raw <= 0 (k = 0).
#include <algorithm>
#include <type_traits>

#include "metrics/adm/cpu/adm_simd.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/adm/cpu/decouple_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::adm::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// SSSE3 has no int32 multiply (SSE4's pmulld); emulated, with the emulated
// gather, it would make this kernel slower than the scalar reference, which
// runs there instead (as on one-lane targets).
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_SSSE3
void DecoupleS0(OrientedRows<int16_t> ref, OrientedRows<int16_t> dis, int begin, int end,
                double gain_limit, OrientedRowsOut<int16_t> restored,
                OrientedRowsOut<int16_t> additive) {
  adm::decouple_row_s0(ref, dis, begin, end, gain_limit, restored, additive);
}
#else

using D32 = hn::ScalableTag<int32_t>;
using D16 = hn::Rebind<int16_t, D32>;
using D16x2 = hn::Repartition<int16_t, D32>;  // int16 lanes, twice as many
using DF = hn::Rebind<float, D32>;
using DH = hn::Half<DF>;
using DD = hn::Rebind<double, DH>;  // half as many binary64 lanes
using V32 = hn::Vec<D32>;
using VF = hn::Vec<DF>;
using VD = hn::Vec<DD>;

// Sign of d * d - (cos2 * o) * t in binary64 for the float lanes of one half,
// narrowed to float (the difference of two doubles keeps the sign of the exact one).
HWY_INLINE hn::Vec<DH> AngleMargin(hn::Vec<DH> d, hn::Vec<DH> o, hn::Vec<DH> t) {
  const DD dd;
  const VD dot = hn::PromoteTo(dd, d);
  const VD cos_o =
      hn::Mul(hn::Set(dd, static_cast<double>(kCosOneDegreeSquared)), hn::PromoteTo(dd, o));
  return hn::DemoteTo(DH(), hn::Sub(hn::Mul(dot, dot), hn::Mul(cos_o, hn::PromoteTo(dd, t))));
}

// AngleInFloat: d * d against (cos2 * o) * t in float, each product rounded
// once (relative error 2^-24; cos2 is a float) where binary64 rounds each at
// 2^-53, so the two right-hand sides are within a factor 1 + 2^-22 of each
// other, and d * d within 1 + 2^-24 of the exact square. Where the float
// square exceeds the float bound times 1 + 2^-20 (itself rounded), the
// binary64 test holds; where the square times 1 + 2^-20 is below the bound,
// it fails (0 >= 0 holds in both). No value is subnormal or near float's
// largest (all are integers below 2^62).

// (float) of a + b for a, b products of two int16 (held as int32): the sum
// wraps only at exactly 2^31, which converts to -2^31, an impossible value.
HWY_INLINE VF FloatOfSum(V32 a, V32 b) {
  const DF df;
  const VF f = hn::ConvertTo(df, hn::Add(a, b));
  return hn::IfThenElse(hn::Eq(f, hn::Set(df, -0x1p31f)), hn::Set(df, 0x1p31f), f);
}

// The same for a sum of two squares (0 to 2^31): AVX-512 converts it as
// unsigned, one rounding, with no mending; elsewhere as FloatOfSum.
HWY_INLINE VF FloatOfSquares(V32 a, V32 b) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  const hn::RebindToUnsigned<D32> du;
  return hn::ConvertTo(DF(), hn::BitCast(du, hn::Add(a, b)));
#else
  return FloatOfSum(a, b);
#endif
}

// trunc(min(rst * gain, t)) for o > 0, trunc(max(rst * gain, t)) otherwise, in binary64.
HWY_INLINE V32 EnhancedInBinary64(V32 rst, V32 o, V32 t, double gain_limit) {
  const D32 d32;
  const hn::Half<D32> dh32;
  const DD dd;
  const VD gain = hn::Set(dd, gain_limit), zero = hn::Zero(dd);
  const auto half = [&](hn::Vec<hn::Half<D32> > r, hn::Vec<hn::Half<D32> > ov,
                        hn::Vec<hn::Half<D32> > tv) {
    const VD scaled = hn::Mul(hn::PromoteTo(dd, r), gain);
    const VD td = hn::PromoteTo(dd, tv);
    const VD e = hn::IfThenElse(hn::Gt(hn::PromoteTo(dd, ov), zero), hn::Min(scaled, td),
                                hn::Max(scaled, td));
    return hn::DemoteTo(dh32, e);  // truncates
  };
  return hn::Combine(
      d32, half(hn::UpperHalf(dh32, rst), hn::UpperHalf(dh32, o), hn::UpperHalf(dh32, t)),
      half(hn::LowerHalf(dh32, rst), hn::LowerHalf(dh32, o), hn::LowerHalf(dh32, t)));
}

// Truncation of binary64 lanes to int32: x86's conversion alone where the
// lanes are in range or are not read (Highway's DemoteTo clamps first).
HWY_INLINE hn::Vec<hn::Half<D32> > Truncate(VD v) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  return hn::Vec<hn::Half<D32> >{_mm512_cvttpd_epi32(v.raw)};
#elif HWY_ARCH_X86 && HWY_TARGET == HWY_AVX2
  return hn::Vec<hn::Half<D32> >{_mm256_cvttpd_epi32(v.raw)};
#else
  return hn::DemoteTo(hn::Half<D32>(), v);
#endif
}

// The Q30 reciprocal table's entry for o (decouple.h): 2^30 / |o| truncated,
// negated for o < 0; any value for o = 0 (unused). Divided in binary64: the
// quotient is at least 1 / |o| >= 2^-15 from the next integer unless it is
// one, far more than its rounding error, so its truncation toward zero is
// the table's entry with o's sign (2^30 / o itself: no magnitude, no negation).
HWY_INLINE V32 Reciprocal(V32 o) {
  const D32 d32;
  const hn::Half<D32> dh32;
  const DD dd;
  const VD two_30 = hn::Set(dd, 0x1p30);
  const auto half = [&](hn::Vec<hn::Half<D32> > v) {
    return Truncate(hn::Div(two_30, hn::PromoteTo(dd, v)));
  };
  return hn::Combine(d32, half(hn::UpperHalf(dh32, o)), half(hn::LowerHalf(dh32, o)));
}

// kIntegerGain: an integer gain limit (the product rst * limit exact in
// int32); kUnitGain: the limit 1 (VMAF v1.0.16's), no product at all.
template <bool kIntegerGain, bool kUnitGain>
void DecoupleRow(OrientedRows<int16_t> ref, OrientedRows<int16_t> dis, int begin, int end,
                 double gain_limit, OrientedRowsOut<int16_t> restored,
                 OrientedRowsOut<int16_t> additive) {
  const D32 d32;
  const D16 d16;
  const DF df;
  const DH dh;
  const int lanes = int(hn::Lanes(d32));
  const V32 zero = hn::Zero(d32), full_gain = hn::Set(d32, 32768), half_unit = hn::Set(d32, 16384);
  const V32 low16 = hn::Set(d32, 0xFFFF);
  const V32 gain = hn::Set(d32, kIntegerGain ? static_cast<int32_t>(gain_limit) : 0);
  // The last vector ends at `end`, over some columns written already (the same values again).
  if (end - begin < lanes) {
    adm::decouple_row_s0(ref, dis, begin, end, gain_limit, restored, additive);
    return;
  }
  for (int next = begin; next < end; next += lanes) {
    const int j = std::min(next, end - lanes);
    const auto load = [&](const int16_t* p) { return hn::PromoteTo(d32, hn::LoadU(d16, p + j)); };
    // Stores the restored value and the additive part of band b: enhanced
    // where the angle test's mask `angle` says (with_angle std::true_type), or
    // the restored value as it is (std::false_type: the limit 1).
    const auto band = [&](int b, auto with_angle, auto angle) {
      const auto t16 = hn::LoadU(d16, dis.band[b] + j);
      const V32 o = load(ref.band[b]), t = hn::PromoteTo(d32, t16);
      const V32 r = Reciprocal(o);
      // recip = 2^16 rh + rl, 0 <= rl < 2^16.
      const V32 k_high = hn::ShiftLeft<1>(hn::Mul(hn::ShiftRight<16>(r), t));
      const V32 k_low = hn::ShiftRight<15>(hn::Add(hn::Mul(hn::And(r, low16), t), half_unit));
      const V32 k_clamped = hn::Min(hn::Max(hn::Add(k_high, k_low), zero), full_gain);
      V32 out;
      if constexpr (decltype(with_angle)::value) {
        // Where o = 0 the product k o is 0 whatever k is: the reference's 2^15
        // need not be chosen. |k o| <= 2^30: exact.
        const V32 k_o = hn::Mul(k_clamped, o);
        const V32 rst = hn::ShiftRight<15>(hn::Add(k_o, half_unit));
        V32 enhanced;
        if constexpr (kIntegerGain) {
          const V32 scaled = kUnitGain ? rst : hn::Mul(rst, gain);
          enhanced = hn::IfThenElse(hn::Gt(o, zero), hn::Min(scaled, t), hn::Max(scaled, t));
        } else {
          enhanced = EnhancedInBinary64(rst, o, t, gain_limit);
        }
        // The enhancement's lanes: o != 0 and k != 0, i.e. k o != 0, and the angle test.
        const auto kept = hn::Eq(k_o, zero);
        out = hn::IfThenElse(hn::AndNot(kept, angle), enhanced, rst);
      } else {
        // Where o = 0 the product k o is 0 whatever k is: no 2^15 needs to be chosen.
        out = hn::ShiftRight<15>(hn::Add(hn::Mul(k_clamped, o), half_unit));
      }
      const auto out16 = hn::DemoteTo(d16, out);
      hn::StoreU(out16, d16, restored.band[b] + j);
      hn::StoreU(hn::Sub(t16, out16), d16, additive.band[b] + j);  // wraps as int16
    };
    if constexpr (kUnitGain) {
      // With the limit 1 the enhancement never moves a value (the file's
      // head), so neither it nor the angle test is made.
      const auto none = hn::FirstN(d32, 0);  // unread
      for (int b = 0; b < 3; ++b) band(b, std::false_type(), none);
      continue;
    }
    const V32 oh = load(ref.band[0]), ov = load(ref.band[1]);
    const V32 th = load(dis.band[0]), tv = load(dis.band[1]);
    const VF dot = FloatOfSum(hn::Mul(oh, th), hn::Mul(ov, tv));
    const VF o_mag = FloatOfSquares(hn::Mul(oh, oh), hn::Mul(ov, ov));
    const VF t_mag = FloatOfSquares(hn::Mul(th, th), hn::Mul(tv, tv));
    const VF fzero = hn::Zero(df);
    // The test in float first, decided where its margin is wide (AngleInFloat);
    // the binary64 sign only for vectors with some lane too close to call.
    const VF square = hn::Mul(dot, dot);
    const VF bound = hn::Mul(hn::Mul(hn::Set(df, kCosOneDegreeSquared), o_mag), t_mag);
    const VF widen = hn::Set(df, 1.0f + 0x1p-20f);
    const auto surely_within = hn::Ge(square, hn::Mul(bound, widen));
    auto within = surely_within;
    if (!hn::AllTrue(df, hn::Or(surely_within, hn::Lt(hn::Mul(square, widen), bound)))) {
      const VF margin = hn::Combine(
          df,
          AngleMargin(hn::UpperHalf(dh, dot), hn::UpperHalf(dh, o_mag), hn::UpperHalf(dh, t_mag)),
          AngleMargin(hn::LowerHalf(dh, dot), hn::LowerHalf(dh, o_mag), hn::LowerHalf(dh, t_mag)));
      within = hn::Ge(margin, fzero);
    }
    const auto angle = hn::RebindMask(d32, hn::And(hn::Ge(dot, fzero), within));
    for (int b = 0; b < 3; ++b) band(b, std::true_type(), angle);
  }
}

// The limit 1 (no enhancement, no angle test: the file's head), 2N columns a
// step, the restored values made in int16 lanes: with k' = k - 2^15 in
// [-2^15, 0] (an int16), (k o + 2^14) >> 15 is MulFixedPoint15(k', o) + o
// exactly (2^15 o / 2^15 is o), kept modulo 2^16 as the int16 store keeps it
// (k' = o = -2^15, whose product MulFixedPoint15 wraps, gives 0, as k = 0
// does). The two halves' gains are narrowed by one pack, which on x86 takes
// them by 64-bit chunks in turn within each block; one lookup of the chunks
// puts them in order.
void DecoupleRowUnitGain(OrientedRows<int16_t> ref, OrientedRows<int16_t> dis, int begin, int end,
                         OrientedRowsOut<int16_t> restored, OrientedRowsOut<int16_t> additive) {
#if HWY_ARCH_X86
  const D32 d32;
  const D16x2 dw;
  const hn::Half<D16x2> dh;
  const hn::Repartition<uint64_t, D32> du64;
  const int lanes = int(hn::Lanes(d32));
  if (end - begin < 2 * lanes) {
    DecoupleRow<true, true>(ref, dis, begin, end, 1.0, restored, additive);
    return;
  }
  HWY_ALIGN uint64_t order[HWY_MAX_BYTES / sizeof(uint64_t)];
  const size_t chunks = hn::Lanes(du64);
  for (size_t c = 0; c < chunks; ++c) order[c] = c < chunks / 2 ? 2 * c : 2 * (c - chunks / 2) + 1;
  const auto in_order = hn::SetTableIndices(du64, order);
  const V32 zero = hn::Zero(d32), low16 = hn::Set(d32, 0xFFFF), half_unit = hn::Set(d32, 16384);
  const V32 unit = hn::Set(d32, 32768), least = hn::Set(d32, -32768);
  // k - 2^15, k = clamp((recip t + 2^14) >> 15, 0, 2^15) as in DecoupleRow.
  const auto gain_less_unit = [&](V32 o, V32 t) {
    const V32 r = Reciprocal(o);
    const V32 k_high = hn::ShiftLeft<1>(hn::Mul(hn::ShiftRight<16>(r), t));
    const V32 k_low = hn::ShiftRight<15>(hn::Add(hn::Mul(hn::And(r, low16), t), half_unit));
    return hn::Min(hn::Max(hn::Sub(hn::Add(k_high, k_low), unit), least), zero);
  };
  // The last step ends at `end`, over some columns written already (the same values again).
  for (int next = begin; next < end; next += 2 * lanes) {
    const int j = std::min(next, end - 2 * lanes);
    for (int b = 0; b < 3; ++b) {
      const auto o16 = hn::LoadU(dw, ref.band[b] + j), t16 = hn::LoadU(dw, dis.band[b] + j);
      const V32 lower = gain_less_unit(hn::PromoteTo(d32, hn::LowerHalf(dh, o16)),
                                       hn::PromoteTo(d32, hn::LowerHalf(dh, t16)));
      const V32 upper = gain_less_unit(hn::PromoteTo(d32, hn::UpperHalf(dh, o16)),
                                       hn::PromoteTo(d32, hn::UpperHalf(dh, t16)));
      const auto packed = hn::BitCast(du64, hn::ReorderDemote2To(dw, lower, upper));
      const auto gain = hn::BitCast(dw, hn::TableLookupLanes(packed, in_order));
      const auto rst = hn::Add(hn::MulFixedPoint15(gain, o16), o16);
      hn::StoreU(rst, dw, restored.band[b] + j);
      hn::StoreU(hn::Sub(t16, rst), dw, additive.band[b] + j);  // wraps as int16
    }
  }
#else
  DecoupleRow<true, true>(ref, dis, begin, end, 1.0, restored, additive);
#endif
}

void DecoupleS0(OrientedRows<int16_t> ref, OrientedRows<int16_t> dis, int begin, int end,
                double gain_limit, OrientedRowsOut<int16_t> restored,
                OrientedRowsOut<int16_t> additive) {
  // An integer limit up to 2^16 - 1 keeps rst * limit (|rst| <= 2^15) an exact int32.
  const bool integer =
      gain_limit >= 1.0 && gain_limit <= 65535.0 && gain_limit == static_cast<int32_t>(gain_limit);
  if (integer && gain_limit == 1.0)
    DecoupleRowUnitGain(ref, dis, begin, end, restored, additive);
  else if (integer)
    DecoupleRow<true, false>(ref, dis, begin, end, gain_limit, restored, additive);
  else
    DecoupleRow<false, false>(ref, dis, begin, end, gain_limit, restored, additive);
}

#endif  // HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_SSSE3

}  // namespace exactvq::adm::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::adm::cpu {

HWY_EXPORT(DecoupleS0);

void decouple_row_s0(OrientedRows<int16_t> ref, OrientedRows<int16_t> dis, int begin, int end,
                     double gain_limit, OrientedRowsOut<int16_t> restored,
                     OrientedRowsOut<int16_t> additive) {
  HWY_DYNAMIC_DISPATCH(DecoupleS0)(ref, dis, begin, end, gain_limit, restored, additive);
}

}  // namespace exactvq::adm::cpu
#endif  // HWY_ONCE
