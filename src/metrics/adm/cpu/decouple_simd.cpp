// ADM's scale-0 decoupling row (decouple.h) as a Highway kernel, in binary64
// lanes: every integer it handles (products of two int16, the Q30 reciprocal
// times t, below 2^46) is exact in binary64, so the gain k, its clamp and the
// restored value are the reference's integers; the angle test converts the
// same integers to float and back and multiplies in the reference's order
// (no fused operations), and the enhanced value truncates as C's cast does.
#include "metrics/adm/cpu/adm_simd.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/adm/cpu/decouple_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::adm::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// SSSE3 has no binary64 floor (SSE4's roundpd); emulated, with the emulated
// gather, it makes this kernel slower than the scalar reference, which runs
// there instead (as on one-lane targets).
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_SSSE3
void DecoupleS0(OrientedRows<int16_t> ref, OrientedRows<int16_t> dis, int begin, int end,
                double gain_limit, OrientedRowsOut<int16_t> restored,
                OrientedRowsOut<int16_t> additive) {
  adm::decouple_row_s0(ref, dis, begin, end, gain_limit, restored, additive);
}
#else

using DF = hn::ScalableTag<double>;
using D32 = hn::Rebind<int32_t, DF>;
using D16 = hn::Rebind<int16_t, DF>;
using VF = hn::Vec<DF>;

HWY_INLINE VF LoadAsDouble(const int16_t* p, int j) {
  return hn::PromoteTo(DF(), hn::PromoteTo(D32(), hn::LoadU(D16(), p + j)));
}

// (double)(float)v / 4096 for an integer v exact in binary64. Dividing by a
// power of two and multiplying by its inverse give the same bits (no value
// here comes near the subnormals).
HWY_INLINE VF FloatScaled(VF v) {
  const hn::Rebind<float, DF> df32;
  return hn::Mul(hn::PromoteTo(DF(), hn::DemoteTo(df32, v)), hn::Set(DF(), 0x1p-12));
}

void DecoupleS0(OrientedRows<int16_t> ref, OrientedRows<int16_t> dis, int begin, int end,
                double gain_limit, OrientedRowsOut<int16_t> restored,
                OrientedRowsOut<int16_t> additive) {
  const DF df;
  const D32 d32;
  const D16 d16;
  const int lanes = int(hn::Lanes(df));
  const int32_t* recip = reciprocal_table();
  const VF zero = hn::Zero(df), full_gain = hn::Set(df, 32768.0);
  const VF half_unit = hn::Set(df, 16384.0), inverse_unit = hn::Set(df, 0x1p-15);
  const VF cos_squared = hn::Set(df, static_cast<double>(kCosOneDegreeSquared));
  const VF gain = hn::Set(df, gain_limit);
  int j = begin;
  for (; j + lanes <= end; j += lanes) {
    const VF oh = LoadAsDouble(ref.band[0], j), ov = LoadAsDouble(ref.band[1], j);
    const VF th = LoadAsDouble(dis.band[0], j), tv = LoadAsDouble(dis.band[1], j);
    const VF dot = FloatScaled(hn::Add(hn::Mul(oh, th), hn::Mul(ov, tv)));
    const VF o_mag = FloatScaled(hn::Add(hn::Mul(oh, oh), hn::Mul(ov, ov)));
    const VF t_mag = FloatScaled(hn::Add(hn::Mul(th, th), hn::Mul(tv, tv)));
    const auto angle = hn::And(
        hn::Ge(dot, zero), hn::Ge(hn::Mul(dot, dot), hn::Mul(hn::Mul(cos_squared, o_mag), t_mag)));
    for (int b = 0; b < 3; ++b) {
      const auto o32 = hn::PromoteTo(d32, hn::LoadU(d16, ref.band[b] + j));
      const auto t32 = hn::PromoteTo(d32, hn::LoadU(d16, dis.band[b] + j));
      const VF o = hn::PromoteTo(df, o32), t = hn::PromoteTo(df, t32);
      const VF reciprocal =
          hn::PromoteTo(df, hn::GatherIndex(d32, recip, hn::Add(o32, hn::Set(d32, 32768))));
      // floor((recip * t + 2^14) / 2^15), clamped to [0, 2^15]; 2^15 where o = 0.
      const VF k_raw = hn::Floor(hn::Mul(hn::Add(hn::Mul(reciprocal, t), half_unit), inverse_unit));
      const auto o_zero = hn::Eq(o, zero);
      const VF k = hn::IfThenElse(o_zero, full_gain, hn::Min(hn::Max(k_raw, zero), full_gain));
      const auto k32 = hn::DemoteTo(d32, k);
      const auto rst32 = hn::ShiftRight<15>(hn::Add(hn::Mul(k32, o32), hn::Set(d32, 16384)));
      const VF rst = hn::PromoteTo(df, rst32);
      const VF scaled = hn::Mul(rst, gain);
      const VF enhanced = hn::IfThenElse(hn::Gt(o, zero), hn::Min(scaled, t), hn::Max(scaled, t));
      const auto enhance = hn::AndNot(hn::Or(o_zero, hn::Eq(k, zero)), angle);
      const auto out32 = hn::DemoteTo(d32, hn::IfThenElse(enhance, enhanced, rst));  // truncates
      hn::StoreU(hn::DemoteTo(d16, out32), d16, restored.band[b] + j);
      // t - rst modulo 2^16: the low 16 bits, sign-extended, then narrowed.
      const auto diff = hn::Sub(t32, out32);
      hn::StoreU(hn::DemoteTo(d16, hn::ShiftRight<16>(hn::ShiftLeft<16>(diff))), d16,
                 additive.band[b] + j);
    }
  }
  if (j < end) adm::decouple_row_s0(ref, dis, j, end, gain_limit, restored, additive);
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
