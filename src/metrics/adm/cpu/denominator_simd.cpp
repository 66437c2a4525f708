// ADM's denominator rows (denominator.h) as Highway kernels. Scale 0: |o| <=
// 2^15 in uint32 lanes, its square below 2^31 there too, the cube (below
// 2^46) by MulEven into uint64 lanes, summed modulo 2^64 as the reference's
// uint64 sum: any order, the same bits. Scales 1..3: |o| <= 2^31 in uint32
// lanes, its square by MulEven in uint64 lanes, rounded and shifted (below
// 2^32 + 2, so at most bit 32 set above the low word), times |o| as the low
// word's MulEven plus |o| << 32 where bit 32 is set: the reference's uint64
// steps, exactly.
#include "metrics/adm/cpu/adm_simd.h"
#include "metrics/adm/definition.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/adm/cpu/denominator_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::adm::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The uint64 lanes' sum modulo 2^64, as the reference's uint64 sums wrap.
// SumOfLanes adds them as signed 64-bit integers on x86, where a wrap is undefined.
template <class D64>
HWY_INLINE uint64_t WrappingSum(D64 d64, hn::Vec<D64> v) {
  HWY_ALIGN uint64_t lanes[HWY_MAX_BYTES / sizeof(uint64_t)];
  hn::Store(v, d64, lanes);
  uint64_t sum = 0;
  for (size_t i = 0; i < hn::Lanes(d64); ++i) sum += lanes[i];
  return sum;
}

#if HWY_TARGET == HWY_SCALAR
std::array<uint64_t, 3> DenominatorS0(OrientedRows<int16_t> ref, int begin, int end) {
  return adm::denominator_row_s0(ref, begin, end);
}
std::array<uint64_t, 3> DenominatorS123(OrientedRows<int32_t> ref, int begin, int end, int scale,
                                        int cube_shift, uint64_t cube_round) {
  return adm::denominator_row_s123(ref, begin, end, scale, cube_shift, cube_round);
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
    out[b] = WrappingSum(d64, sum);
  }
  if (vector_end < end) {
    const std::array<uint64_t, 3> tail = adm::denominator_row_s0(ref, vector_end, end);
    for (int b = 0; b < 3; ++b) out[b] += tail[b];
  }
  return out;
}

using DU32 = hn::ScalableTag<uint32_t>;
using DU64 = hn::Repartition<uint64_t, DU32>;

// The terms of the |o| in the low words of the uint64 lanes of m (high words zero).
HWY_INLINE hn::Vec<DU64> TermsS123(hn::Vec<DU64> m, int q, hn::Vec<DU64> square_round,
                                   int cube_shift, hn::Vec<DU64> cube_round) {
  const DU32 du32;
  const DU64 du64;
  const auto m32 = hn::BitCast(du32, m);
  const auto s = hn::ShiftRightSame(hn::Add(hn::MulEven(m32, m32), square_round), q);
  const auto high = hn::And(m, hn::Sub(hn::Zero(du64), hn::ShiftRight<32>(s)));  // bit 32 of s
  const auto product = hn::Add(hn::MulEven(hn::BitCast(du32, s), m32), hn::ShiftLeft<32>(high));
  return hn::ShiftRightSame(hn::Add(product, cube_round), cube_shift);
}

// The same where s is below 2^32 (no bit 32 to add back), for the |o| in the
// low words of the uint64 lanes of m (the high words ignored).
HWY_INLINE hn::Vec<DU64> TermsS123Narrow(hn::Vec<DU64> m, int q, hn::Vec<DU64> square_round,
                                         int cube_shift, hn::Vec<DU64> cube_round) {
  const DU32 du32;
  const auto m32 = hn::BitCast(du32, m);
  const auto s = hn::ShiftRightSame(hn::Add(hn::MulEven(m32, m32), square_round), q);
  return hn::ShiftRightSame(hn::Add(hn::MulEven(hn::BitCast(du32, s), m32), cube_round),
                            cube_shift);
}

std::array<uint64_t, 3> DenominatorS123(OrientedRows<int32_t> ref, int begin, int end, int scale,
                                        int cube_shift, uint64_t cube_round) {
  const hn::ScalableTag<int32_t> d;
  const DU32 du32;
  const DU64 du64;
  const int lanes = int(hn::Lanes(d));
  const int vector_end = begin + (end > begin ? (end - begin) / lanes * lanes : 0);
  const int q = adm_denominator_square_shift(scale);
  const auto square_round = hn::Set(du64, uint64_t{1} << q);
  const auto round = hn::Set(du64, cube_round);
  const auto low_word = hn::Set(du64, uint64_t{0xFFFFFFFF});
  const auto top_bit = hn::Set(du32, 0x80000000u);
  std::array<uint64_t, 3> out{0, 0, 0};
  for (int b = 0; b < 3; ++b) {
    auto sum = hn::Zero(du64);
    for (int j = begin; j < vector_end; j += lanes) {
      // |o| as uint32: INT32_MIN's magnitude 2^31 too.
      const auto m32 = hn::BitCast(du32, hn::Abs(hn::LoadU(d, ref.band[b] + j)));
      const auto m = hn::BitCast(du64, m32);
      // s = (m^2 + 2^q) >> q passes 2^32 only for q = 30 and m = 2^31.
      if (q == 31 || hn::AllFalse(du32, hn::Eq(m32, top_bit))) {
        const auto even = TermsS123Narrow(m, q, square_round, cube_shift, round);
        const auto odd = TermsS123Narrow(hn::ShiftRight<32>(m), q, square_round, cube_shift, round);
        sum = hn::Add(sum, hn::Add(even, odd));
        continue;
      }
      const auto even = TermsS123(hn::And(m, low_word), q, square_round, cube_shift, round);
      const auto odd = TermsS123(hn::ShiftRight<32>(m), q, square_round, cube_shift, round);
      sum = hn::Add(sum, hn::Add(even, odd));
    }
    out[b] = WrappingSum(du64, sum);
  }
  if (vector_end < end) {
    const std::array<uint64_t, 3> tail =
        adm::denominator_row_s123(ref, vector_end, end, scale, cube_shift, cube_round);
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
HWY_EXPORT(DenominatorS123);

std::array<uint64_t, 3> denominator_row_s0(OrientedRows<int16_t> ref, int begin, int end) {
  return HWY_DYNAMIC_DISPATCH(DenominatorS0)(ref, begin, end);
}
std::array<uint64_t, 3> denominator_row_s123(OrientedRows<int32_t> ref, int begin, int end,
                                             int scale, int cube_shift, uint64_t cube_round) {
  return HWY_DYNAMIC_DISPATCH(DenominatorS123)(ref, begin, end, scale, cube_shift, cube_round);
}

}  // namespace exactvq::adm::cpu
#endif  // HWY_ONCE
