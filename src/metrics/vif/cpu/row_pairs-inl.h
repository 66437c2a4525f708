// The x86 vertical passes' int16 lanes, shared by vertical_moments.cpp and
// blur.cpp: two rows a multiply-add. Included inside a Highway target
// namespace, once per target (hence no include guard: Highway's per-target
// toggle guards it).
//
// x86 only: ReorderWidenMulAccumulate is there the pairwise multiply-add of
// adjacent int16 lanes into their int32 lane (pmaddwd), and InterleaveLower
// and InterleaveUpper pair the lanes of each 128-bit block; the sums read
// both lane by lane, so other targets keep their uint32 lanes.
#if defined(EXACTVQ_VIF_ROW_PAIRS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef EXACTVQ_VIF_ROW_PAIRS_INL_H_
#undef EXACTVQ_VIF_ROW_PAIRS_INL_H_
#else
#define EXACTVQ_VIF_ROW_PAIRS_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <hwy/highway.h>

#include "backends/cpu/pair_products-inl.h"
#include "metrics/vif/edges.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::vif::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR

namespace row_pairs {
using D32 = hn::ScalableTag<uint32_t>;
using D16 = hn::Repartition<int16_t, D32>;
using DU16 = hn::RebindToUnsigned<D16>;
using DS32 = hn::RebindToSigned<D32>;
using V32 = hn::Vec<D32>;
using V16 = hn::Vec<D16>;
using VS32 = hn::Vec<DS32>;

// Sums of the pixels of each 128-bit block's first half (lower) and second
// half (upper), as InterleaveLower and InterleaveUpper pair them, back in
// column order: the first Lanes(D32) columns, then the next.
HWY_INLINE void InColumnOrder(V32 lower, V32 upper, V32& first, V32& second) {
  const D32 d;
#if HWY_TARGET <= HWY_AVX3
  // Blocks [l0 l1 u0 u1] and [l2 l3 u2 u3], each to [l u l u].
  const hn::Repartition<uint64_t, D32> d64;
  alignas(64) static constexpr uint64_t kBlocks[8] = {0, 1, 4, 5, 2, 3, 6, 7};
  const auto blocks = hn::SetTableIndices(d64, kBlocks);
  first = hn::BitCast(
      d, hn::TableLookupLanes(hn::BitCast(d64, hn::ConcatLowerLower(d, upper, lower)), blocks));
  second = hn::BitCast(
      d, hn::TableLookupLanes(hn::BitCast(d64, hn::ConcatUpperUpper(d, upper, lower)), blocks));
#elif HWY_TARGET == HWY_AVX2
  first = hn::ConcatLowerLower(d, upper, lower);
  second = hn::ConcatUpperUpper(d, upper, lower);
#else
  first = lower;
  second = upper;
#endif
}

// Taps k and k + 1 in each int32 lane's low and high halves; an odd last
// tap pairs with 0 (its row then pairs with itself, PairedRow).
HWY_INLINE V16 TapPair(std::span<const uint16_t> taps, size_t k) {
  const uint32_t second = k + 1 < taps.size() ? taps[k + 1] : 0;
  return hn::BitCast(D16(), hn::Set(D32(), uint32_t{taps[k]} | second << 16));
}
HWY_INLINE size_t PairedRow(std::span<const uint16_t> taps, size_t k) {
  return k + 1 < taps.size() ? k + 1 : k;
}

// count columns of `line` from `first`, biased by -2^15, into lo (the low
// 16-bit halves) and hi (the high ones, unless null); `padding` zeros after
// them.
HWY_INLINE void SplitLine(const EdgeLine& line, int first, int count, int padding,
                          std::vector<int16_t>& lo, std::vector<int16_t>* hi) {
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

using exactvq::cpu::HWY_NAMESPACE::MulAddPairs;     // pair_products-inl.h
using exactvq::cpu::HWY_NAMESPACE::WithVnniChoice;  // pair_products-inl.h
}  // namespace row_pairs

#endif  // HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR

}  // namespace exactvq::vif::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // EXACTVQ_VIF_ROW_PAIRS_INL_H_ toggle
