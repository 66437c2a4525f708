// The int32 lanes' 64-bit products that ADM's scales 1-3 take of a value and
// a Q32 factor or weight (csf_simd.cpp, masking_simd.cpp, dwt_simd.cpp):
// MulEven of the even lanes, then of the odd ones moved down. Included inside
// a Highway target namespace, once per target (Highway's per-target toggle
// guards it).
#if defined(EXACTVQ_ADM_Q32_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef EXACTVQ_ADM_Q32_LANES_INL_H_
#undef EXACTVQ_ADM_Q32_LANES_INL_H_
#else
#define EXACTVQ_ADM_Q32_LANES_INL_H_
#endif

#include <cstdint>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::adm::cpu::HWY_NAMESPACE {
namespace q32_lanes {
namespace hn = hwy::HWY_NAMESPACE;

// The odd int32 lanes of v in the even positions (for MulEven).
template <class D>
HWY_INLINE hn::Vec<D> OddLanesDown(D d, hn::Vec<D> v) {
  return hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(hn::Repartition<int64_t, D>(), v)));
}

// int32((v * factor + 2^27) >> 28) in every lane, factor < 2^32 multiplied as
// the int32 f = factor - 2^32 where factor >= 2^31 (wide): v * factor is then
// v * f + v * 2^32, exact modulo 2^64 as the product is below 2^63. Bits
// 28..59 of the even lanes' products go down to their low halves, of the odd
// ones' up to their high halves.
template <class D>
HWY_INLINE hn::Vec<D> Weighted(D d, hn::Vec<D> v, hn::Vec<D> f, bool wide,
                               hn::Vec<hn::Repartition<int64_t, D>> round) {
  const hn::Repartition<int64_t, D> d64;
  const auto v64 = hn::BitCast(d64, v);
  auto even = hn::MulEven(v, f);
  auto odd = hn::MulEven(OddLanesDown(d, v), f);
  if (wide) {
    even = hn::Add(even, hn::ShiftLeft<32>(v64));
    odd = hn::Add(odd, hn::And(v64, hn::Set(d64, int64_t(~uint64_t{0xFFFFFFFF}))));
  }
  return hn::OddEven(hn::BitCast(d, hn::ShiftLeft<4>(hn::Add(odd, round))),
                     hn::BitCast(d, hn::ShiftRight<28>(hn::Add(even, round))));
}

}  // namespace q32_lanes
}  // namespace exactvq::adm::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // EXACTVQ_ADM_Q32_LANES_INL_H_
