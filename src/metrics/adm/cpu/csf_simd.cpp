// ADM's CSF rows (csf.h) as Highway kernels: the reference's int32 and int64
// integer steps lane by lane, the int16 stores as its casts (the low 16 bits),
// the scale 1..3 products by MulEven of the even and the odd lanes.
#include <algorithm>

#include "metrics/adm/cpu/adm_simd.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/adm/cpu/csf_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "metrics/adm/cpu/q32_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::adm::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using q32_lanes::OddLanesDown;
using q32_lanes::Weighted;

// SSSE3 lacks the signed 32x32 -> 64-bit multiply and 64-bit lane shifts;
// emulated, they make this kernel slower than the scalar reference, which runs
// there instead (as on one-lane targets).
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_SSSE3
void CsfS0(const int16_t* src, int begin, int end, uint16_t factor, int shift, int32_t round,
           int16_t* csf, int16_t* flt) {
  adm::csf_row_s0(src, begin, end, factor, shift, round, csf, flt);
}
void CsfS123(const int32_t* src, int begin, int end, uint32_t factor, int32_t* csf, int32_t* flt) {
  adm::csf_row_s123(src, begin, end, factor, csf, flt);
}
#else

using D32 = hn::ScalableTag<int32_t>;
using D16 = hn::Rebind<int16_t, D32>;
using D64 = hn::Repartition<int64_t, D32>;
using V32 = hn::Vec<D32>;
using V64 = hn::Vec<D64>;

// The int16 cast of an int32 lane, narrowed: its low 16 bits.
HWY_INLINE hn::Vec<D16> CastToInt16(V32 v) {
  const hn::RebindToUnsigned<D32> du32;
  const hn::RebindToUnsigned<D16> du16;
  return hn::BitCast(D16(), hn::TruncateTo(du16, hn::BitCast(du32, v)));
}

void CsfS0Int32(const int16_t* src, int begin, int end, uint16_t factor, int shift, int32_t round,
                int16_t* csf, int16_t* flt) {
  const D32 d;
  const D16 d16;
  const int lanes = int(hn::Lanes(d));
  const V32 f = hn::Set(d, int32_t{factor}), r = hn::Set(d, round);
  const V32 flat_scale = hn::Set(d, 4369), flat_round = hn::Set(d, 2048);
  // The last vector ends at `end`, over some columns written already (the same values again).
  if (end - begin < lanes) {
    adm::csf_row_s0(src, begin, end, factor, shift, round, csf, flt);
    return;
  }
  for (int next = begin; next < end; next += lanes) {
    const int j = std::min(next, end - lanes);
    // int32 product and sum, wrapping as the reference's uint32 arithmetic.
    const V32 rounded = hn::Add(hn::Mul(f, hn::PromoteTo(d, hn::LoadU(d16, src + j))), r);
    const auto value = CastToInt16(hn::ShiftRightSame(rounded, shift));
    hn::StoreU(value, d16, csf + j);
    const V32 magnitude = hn::Abs(hn::PromoteTo(d, value));
    hn::StoreU(CastToInt16(hn::ShiftRight<12>(hn::Add(hn::Mul(magnitude, flat_scale), flat_round))),
               d16, flt + j);
  }
}

// Scale 0 in int16 lanes, for the reference's two roundings. With the factor
// f as an int16 g (f - 2^16 when f >= 2^15, so that f s = g s + 2^16 s):
// - shift 15, round 2^14: floor((f s + 2^14) / 2^15) is MulFixedPoint15(g, s),
//   plus 2s when f >= 2^15 (g = -2^15, f = 2^15, would overflow it: not here);
// - shift 17, round 65535: with f s = 2^16 hi + lo (lo unsigned), hi =
//   MulHigh(g, s) (+ s when f >= 2^15), the value is (hi + (lo != 0)) >> 1;
// each in range (|f s| < 2^31, no wrap in the reference's int32 either), kept
// modulo 2^16 as the reference's int16 store. The flattened value
// floor((4369 m + 2048) / 2^12), m = |value| <= 2^15, is floor((34952 m +
// 2^14) / 2^15): MulFixedPoint15(34952 - 2^16, m) + 2m modulo 2^16, and for
// m = 2^15 (value -2^15, no int16 magnitude) 34952, i.e. -30584.
void CsfS0(const int16_t* src, int begin, int end, uint16_t factor, int shift, int32_t round,
           int16_t* csf, int16_t* flt) {
  const hn::ScalableTag<int16_t> d;
  const int lanes = int(hn::Lanes(d));
  const bool hv = shift == 15 && round == 16384, diagonal = shift == 17 && round == 65535;
  if ((!hv && !diagonal) || factor == 32768 || end - begin < lanes) {
    CsfS0Int32(src, begin, end, factor, shift, round, csf, flt);
    return;
  }
  const bool wide = factor >= 32768;
  const auto g = hn::Set(d, static_cast<int16_t>(wide ? int32_t{factor} - 65536 : factor));
  const auto flat_scale = hn::Set(d, int16_t{34952 - 65536});
  const auto min16 = hn::Set(d, int16_t{-32768}), flat_of_min = hn::Set(d, int16_t{34952 - 65536});
  const auto zero = hn::Zero(d);
  // The last vector ends at `end`, over some columns written already (the same values again).
  for (int next = begin; next < end; next += lanes) {
    const int j = std::min(next, end - lanes);
    const auto x = hn::LoadU(d, src + j);
    hn::Vec<decltype(d)> value;
    if (hv) {
      value = hn::MulFixedPoint15(g, x);
      if (wide) value = hn::Add(hn::Add(value, x), x);
    } else {
      auto high = hn::MulHigh(g, x);
      if (wide) high = hn::Add(high, x);
      // hi + 1 where lo != 0: VecFromMask is -1 there.
      const auto low_nonzero = hn::VecFromMask(d, hn::Ne(hn::Mul(g, x), zero));
      value = hn::ShiftRight<1>(hn::Sub(high, low_nonzero));
    }
    hn::StoreU(value, d, csf + j);
    const auto magnitude = hn::Abs(value);
    const auto flat =
        hn::Add(hn::Add(hn::MulFixedPoint15(flat_scale, magnitude), magnitude), magnitude);
    hn::StoreU(hn::IfThenElse(hn::Eq(value, min16), flat_of_min, flat), d, flt + j);
  }
}

// int32((143165577 * |v| - 2^31) >> 32) in every lane, |v| up to 2^31
// (unsigned): the high halves of the products' lanes.
HWY_INLINE V32 Flat(D32 d, V32 magnitude, V64 round) {
  const hn::RebindToUnsigned<D32> du;
  const auto weight = hn::Set(du, 143165577u);
  const V64 even =
      hn::Add(hn::BitCast(D64(), hn::MulEven(hn::BitCast(du, magnitude), weight)), round);
  const V64 odd = hn::Add(
      hn::BitCast(D64(), hn::MulEven(hn::BitCast(du, OddLanesDown(d, magnitude)), weight)), round);
  return hn::OddEven(hn::BitCast(d, odd), hn::BitCast(d, hn::ShiftRight<32>(even)));
}

void CsfS123(const int32_t* src, int begin, int end, uint32_t factor, int32_t* csf, int32_t* flt) {
  const D32 d;
  const D64 d64;
  const int lanes = int(hn::Lanes(d));
  const V32 f = hn::Set(d, static_cast<int32_t>(factor));
  const bool wide = factor >= 0x80000000u;
  const V64 weight_round = hn::Set(d64, int64_t{1} << 27),
            flat_round = hn::Set(d64, kRoundBeforeShift32);
  // The last vector ends at `end`, over some columns written already (the same values again).
  if (end - begin < lanes) {
    adm::csf_row_s123(src, begin, end, factor, csf, flt);
    return;
  }
  for (int next = begin; next < end; next += lanes) {
    const int j = std::min(next, end - lanes);
    const V32 s = hn::LoadU(d, src + j);
    const V32 value = Weighted(d, s, f, wide, weight_round);
    hn::StoreU(value, d, csf + j);
    const V32 magnitude = hn::Abs(value);  // INT32_MIN read as 2^31 below
    hn::StoreU(Flat(d, magnitude, flat_round), d, flt + j);
  }
}

#endif  // HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_SSSE3

}  // namespace exactvq::adm::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::adm::cpu {

HWY_EXPORT(CsfS0);
HWY_EXPORT(CsfS123);

void csf_row_s0(const int16_t* src, int begin, int end, uint16_t factor, int shift, int32_t round,
                int16_t* csf, int16_t* flt) {
  HWY_DYNAMIC_DISPATCH(CsfS0)(src, begin, end, factor, shift, round, csf, flt);
}
void csf_row_s123(const int32_t* src, int begin, int end, uint32_t factor, int32_t* csf,
                  int32_t* flt) {
  HWY_DYNAMIC_DISPATCH(CsfS123)(src, begin, end, factor, csf, flt);
}

}  // namespace exactvq::adm::cpu
#endif  // HWY_ONCE
