// ADM's decoupling row at scales 1..3 (decouple.h) as a Highway kernel, in
// binary64 and int64 lanes.
// - The angle test's dot products and magnitudes are the reference's int64
//   sums (MulEven products, wrapping adds); each is rounded to float exactly
//   as C's conversion does: exact in binary64 below 2^53, above that first
//   rounded to odd at 2^11 (the lost bits kept as a sticky bit), which a
//   rounding to float then turns into the correct rounding.
// - The divisor |o| reduced to 15 bits, its reciprocal, the gain k and the
//   restored value are integers, computed in binary64 where they are exact
//   (below 2^48); the one product that may not be, the Q30 reciprocal times t
//   when |o| < 2^15, is inexact only beyond 2^53, where the gain clamps to 0
//   or 2^15 by its sign alone, as the reference's does.
#include <algorithm>

#include "metrics/adm/cpu/adm_simd.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/adm/cpu/decouple_s123_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::adm::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Below AVX2 (two binary64 lanes, emulated gathers, and on SSSE3 no signed
// 32x32 -> 64-bit multiply) this kernel is slower than the scalar reference,
// which runs there instead (as on one-lane targets).
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_SSSE3 || HWY_TARGET == HWY_SSE4
void DecoupleS123(OrientedRows<int32_t> ref, OrientedRows<int32_t> dis, int begin, int end,
                  double gain_limit, OrientedRowsOut<int32_t> restored,
                  OrientedRowsOut<int32_t> additive) {
  adm::decouple_row_s123(ref, dis, begin, end, gain_limit, restored, additive);
}
#else

using DF = hn::ScalableTag<double>;
using DI = hn::Rebind<int64_t, DF>;
using D32 = hn::Rebind<int32_t, DF>;
using VF = hn::Vec<DF>;
using VI = hn::Vec<DI>;

// Exact binary64 of v, 0 <= v < 2^52: v's bits under the exponent of 2^52.
HWY_INLINE VF SmallToDouble(VI v) {
  const DF df;
  const DI di;
  return hn::Sub(hn::BitCast(df, hn::Or(v, hn::Set(di, int64_t{0x4330000000000000}))),
                 hn::Set(df, 0x1p52));
}

// Binary64 of v: exact for |v| < 2^53 (high half + low half, both exact).
HWY_INLINE VF ToDouble(VI v) {
  const DF df;
  const DI di;
  const VF high =
      hn::Sub(SmallToDouble(hn::Add(hn::ShiftRight<32>(v), hn::Set(di, int64_t{1} << 31))),
              hn::Set(df, 0x1p31));
  const VF low = SmallToDouble(hn::And(v, hn::Set(di, int64_t{0xFFFFFFFF})));
  return hn::Add(hn::Mul(high, hn::Set(df, 0x1p32)), low);
}

// (double)(float)v, with float(v) rounded as C's int64 -> float conversion.
HWY_INLINE VF FloatOf(VI v) {
  const DF df;
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  // AVX-512 DQ converts int64 to float itself, rounded to nearest as C's
  // conversion (Highway 1.0 has no such DemoteTo).
  return hn::PromoteTo(df, hn::Vec<hn::Rebind<float, DF> >{_mm512_cvtepi64_ps(v.raw)});
#else
  const DI di;
  const VF exact = ToDouble(v);
  const VI sticky = hn::ShiftRight<11>(
      hn::Add(hn::And(v, hn::Set(di, int64_t{0x7FF})), hn::Set(di, int64_t{0x7FF})));
  const VF odd = hn::Mul(ToDouble(hn::Or(hn::ShiftRight<11>(v), sticky)), hn::Set(df, 0x1p11));
  const VF wide = hn::IfThenElse(hn::Ge(hn::Abs(exact), hn::Set(df, 0x1p53)), odd, exact);
  return hn::PromoteTo(df, hn::DemoteTo(hn::Rebind<float, DF>(), wide));
#endif
}

// The int64 product of two int64 lanes holding int32 values.
HWY_INLINE VI Product(VI a, VI b) {
  const hn::Repartition<int32_t, DI> d32;
  return hn::MulEven(hn::BitCast(d32, a), hn::BitCast(d32, b));
}

// Truncation of binary64 lanes that lie in int32 range: x86's conversion
// alone (Highway's DemoteTo first clamps to the range, an operation more).
HWY_INLINE hn::Vec<D32> TruncateInRange(VF v) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  return hn::Vec<D32>{_mm512_cvttpd_epi32(v.raw)};
#elif HWY_ARCH_X86 && HWY_TARGET == HWY_AVX2
  return hn::Vec<D32>{_mm256_cvttpd_epi32(v.raw)};
#else
  return hn::DemoteTo(D32(), v);
#endif
}

// kUnitGain: the gain limit 1 (VMAF v1.0.16's), rst * 1 made by no product.
template <bool kUnitGain>
void DecoupleRow(OrientedRows<int32_t> ref, OrientedRows<int32_t> dis, int begin, int end,
                 double gain_limit, OrientedRowsOut<int32_t> restored,
                 OrientedRowsOut<int32_t> additive) {
  const DF df;
  const DI di;
  const D32 d32;
  const int lanes = int(hn::Lanes(df));
  const VF two_30 = hn::Set(df, 0x1p30);
  const VF zero = hn::Zero(df), full_gain = hn::Set(df, 32768.0),
           inverse_unit = hn::Set(df, 0x1p-15);
  const VF cos_squared = hn::Set(df, static_cast<double>(kCosOneDegreeSquared));
  const VF gain = hn::Set(df, gain_limit);
  const VF two_14 = hn::Set(df, 16384.0), two_31 = hn::Set(df, 0x1p31);
  const VI exponent_bits = hn::Set(di, int64_t{0x7FF0000000000000});
  // The bits of 2^14 * 1.0 plus those of 1.0 (so that subtracting the bits of
  // 2^e leaves those of 2^(14 - e)), and 15 in the exponent field.
  const VI two_14_times_one_bits =
      hn::Set(di, static_cast<int64_t>(uint64_t{1023 + 14 + 1023} << 52));
  const VI exponent_15 = hn::Set(di, int64_t{15} << 52);
  // The last vector ends at `end`, over some columns written already (the same values again).
  if (end - begin < lanes) {
    adm::decouple_row_s123(ref, dis, begin, end, gain_limit, restored, additive);
    return;
  }
  for (int next = begin; next < end; next += lanes) {
    const int j = std::min(next, end - lanes);
    const auto load = [&](const int32_t* p) { return hn::PromoteTo(di, hn::LoadU(d32, p + j)); };
    const VI oh = load(ref.band[0]), ov = load(ref.band[1]), th = load(dis.band[0]),
             tv = load(dis.band[1]);
    // The reference's scaling of each by 1/4096 moves both sides of the test
    // by 2^-24 exactly (no value comes near the subnormals or infinity), so
    // it changes no comparison and is left out, as at scale 0.
    const VF dot = FloatOf(hn::Add(Product(oh, th), Product(ov, tv)));
    const VF o_mag = FloatOf(hn::Add(Product(oh, oh), Product(ov, ov)));
    const VF t_mag = FloatOf(hn::Add(Product(th, th), Product(tv, tv)));
    const auto angle = hn::And(
        hn::Ge(dot, zero), hn::Ge(hn::Mul(dot, dot), hn::Mul(hn::Mul(cos_squared, o_mag), t_mag)));
    for (int b = 0; b < 3; ++b) {
      const auto o32 = hn::LoadU(d32, ref.band[b] + j), t32 = hn::LoadU(d32, dis.band[b] + j);
      const VF o = hn::PromoteTo(df, o32), t = hn::PromoteTo(df, t32);
      const VF abs_o = hn::Abs(o);
      // p = 2^floor(log2 |o|) raised to 2^14 where smaller (|o| < 2^15, or
      // o = 0): the divisor's shift is s = log2 p - 14, 0 there.
      const VF p = hn::Max(hn::BitCast(df, hn::And(hn::BitCast(di, abs_o), exponent_bits)), two_14);
      const VI p_bits = hn::BitCast(di, p);
      // 2^-s = 2^14 / p and 2^(s-1) = p / 2^15, made on p's exponent field
      // (exact, no division); where s = 0 they are 1 and 1/2, and the divisor
      // floor(|o| + 1/2) is |o|.
      const VF inverse_scale = hn::BitCast(df, hn::Sub(two_14_times_one_bits, p_bits));
      const VF half = hn::BitCast(df, hn::Sub(p_bits, exponent_15));
      const VF divisor = hn::Floor(hn::Mul(hn::Add(abs_o, half), inverse_scale));
      // 1 << (14 + s) as an int32: p, but INT32_MIN for s = 17 (|o| = 2^31).
      const VF round = hn::IfThenElse(hn::Ge(abs_o, two_31), hn::Neg(two_31), p);
      // The table's 2^30 / divisor truncated, divided here: the quotient of two
      // integers below 2^31 is at least 1 / divisor >= 2^-15 from the next
      // integer unless it is one, far more than its rounding error (2^-23 at
      // most), so the floor of the rounded quotient is the truncated one.
      // (Where o = 0 the divisor is 0; 1 instead keeps the lane finite.)
      const VF reciprocal = hn::Floor(hn::Div(two_30, hn::Max(divisor, hn::Set(df, 1.0))));
      const VF product = hn::Mul(reciprocal, t);
      const VF signed_product = hn::IfThenElse(hn::Lt(o, zero), hn::Neg(product), product);
      const VF k_raw =
          hn::Floor(hn::Mul(hn::Add(signed_product, round), hn::Mul(inverse_scale, inverse_unit)));
      // Where o = 0 the reference's gain is 2^15 and this one may differ, but
      // neither reaches a value: k o is 0 either way.
      const VF k = hn::Min(hn::Max(k_raw, zero), full_gain);
      const VF k_o = hn::Mul(k, o);  // exact: below 2^46
      const VF rst = hn::Floor(hn::Mul(hn::Add(k_o, two_14), inverse_unit));
      const VF scaled = kUnitGain ? rst : hn::Mul(rst, gain);
      const VF enhanced = hn::IfThenElse(hn::Gt(o, zero), hn::Min(scaled, t), hn::Max(scaled, t));
      // The enhancement's lanes: k != 0 and o != 0, i.e. k o != 0, and the angle test.
      const auto enhance = hn::AndNot(hn::Eq(k_o, zero), angle);
      const auto out32 = TruncateInRange(hn::IfThenElse(enhance, enhanced, rst));
      hn::StoreU(out32, d32, restored.band[b] + j);
      hn::StoreU(hn::Sub(t32, out32), d32,
                 additive.band[b] + j);  // wraps as the reference's uint32
    }
  }
}

void DecoupleS123(OrientedRows<int32_t> ref, OrientedRows<int32_t> dis, int begin, int end,
                  double gain_limit, OrientedRowsOut<int32_t> restored,
                  OrientedRowsOut<int32_t> additive) {
  if (gain_limit == 1.0)
    DecoupleRow<true>(ref, dis, begin, end, gain_limit, restored, additive);
  else
    DecoupleRow<false>(ref, dis, begin, end, gain_limit, restored, additive);
}

#endif  // HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_SSSE3 || HWY_TARGET == HWY_SSE4

}  // namespace exactvq::adm::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::adm::cpu {

HWY_EXPORT(DecoupleS123);

void decouple_row_s123(OrientedRows<int32_t> ref, OrientedRows<int32_t> dis, int begin, int end,
                       double gain_limit, OrientedRowsOut<int32_t> restored,
                       OrientedRowsOut<int32_t> additive) {
  HWY_DYNAMIC_DISPATCH(DecoupleS123)(ref, dis, begin, end, gain_limit, restored, additive);
}

}  // namespace exactvq::adm::cpu
#endif  // HWY_ONCE
