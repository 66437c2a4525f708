// ADM's scale-0 denominator row (denominator.h) as a Highway kernel: |o| <=
// 2^15 in uint32 lanes, its square below 2^31 there too, the cube (below
// 2^46) by MulEven into uint64 lanes, summed modulo 2^64 as the reference's
// uint64 sum: any order, the same bits.
#include "metrics/adm/cpu/adm_simd.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/adm/cpu/denominator_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::adm::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR
std::array<uint64_t, 3> DenominatorS0(OrientedRows<int16_t> ref, int begin, int end) {
  return adm::denominator_row_s0(ref, begin, end);
}
#else

std::array<uint64_t, 3> DenominatorS0(OrientedRows<int16_t> ref, int begin, int end) {
  const hn::ScalableTag<int32_t> d;
  const hn::RebindToUnsigned<decltype(d)> du;
  const hn::Rebind<int16_t, decltype(d)> d16;
  const hn::Repartition<uint64_t, decltype(d)> d64;
  const int lanes = int(hn::Lanes(d));
  const int vector_end = begin + (end > begin ? (end - begin) / lanes * lanes : 0);
  std::array<uint64_t, 3> out{0, 0, 0};
  for (int b = 0; b < 3; ++b) {
    auto sum = hn::Zero(d64);
    for (int j = begin; j < vector_end; j += lanes) {
      const auto m = hn::BitCast(du, hn::Abs(hn::PromoteTo(d, hn::LoadU(d16, ref.band[b] + j))));
      const auto square = hn::Mul(m, m);
      const auto m_odd = hn::BitCast(du, hn::ShiftRight<32>(hn::BitCast(d64, m)));
      const auto square_odd = hn::BitCast(du, hn::ShiftRight<32>(hn::BitCast(d64, square)));
      sum = hn::Add(sum, hn::Add(hn::MulEven(square, m), hn::MulEven(square_odd, m_odd)));
    }
    out[b] = hn::GetLane(hn::SumOfLanes(d64, sum));
  }
  if (vector_end < end) {
    const std::array<uint64_t, 3> tail = adm::denominator_row_s0(ref, vector_end, end);
    for (int b = 0; b < 3; ++b) out[b] += tail[b];
  }
  return out;
}

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace exactvq::adm::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::adm::cpu {

HWY_EXPORT(DenominatorS0);

std::array<uint64_t, 3> denominator_row_s0(OrientedRows<int16_t> ref, int begin, int end) {
  return HWY_DYNAMIC_DISPATCH(DenominatorS0)(ref, begin, end);
}

}  // namespace exactvq::adm::cpu
#endif  // HWY_ONCE
