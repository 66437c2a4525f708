// ADM's DWT passes (dwt.h) as Highway kernels. At scale 0 the sums are integers
// in int32 lanes: at 8 bits they are exact; at 16 bits the vertical low-pass
// sum may pass 2^31 but wraps modulo 2^32 to the centred value, which is in
// int32 range, exactly as the reference's argument shows. Samples lie within
// their bit depth (the readers and the C API refuse others), so outputs lie
// within +-27411 and narrowing to int16 (saturating) changes nothing.
#include <algorithm>

#include "metrics/adm/cpu/adm_simd.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/adm/cpu/dwt_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "metrics/adm/cpu/q32_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::adm::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using q32_lanes::OddLanesDown;

#if HWY_TARGET == HWY_SCALAR
// One-lane vectors cannot split lanes: the references are the kernel.
void Vertical8(const uint8_t* const rows[4], int width, int16_t* lo, int16_t* hi) {
  adm::dwt0_vertical(rows, width, lo, hi);
}
void Vertical16(const uint16_t* const rows[4], int width, int bitdepth, int16_t* lo, int16_t* hi) {
  adm::dwt0_vertical(rows, width, bitdepth, lo, hi);
}
void Horizontal0(const int16_t* lo, const int16_t* hi, const std::array<int, 4>* taps,
                 int out_width, int16_t* a, int16_t* v, int16_t* h, int16_t* d) {
  adm::dwt0_horizontal(lo, hi, taps, out_width, a, v, h, d);
}
void VerticalS123(const int32_t* const rows[4], int width, int scale, int32_t* lo, int32_t* hi) {
  adm::dwt_vertical_s123(rows, width, scale, lo, hi);
}
void HorizontalS123(const int32_t* lo, const int32_t* hi, const std::array<int, 4>* taps,
                    int out_width, int scale, int32_t* a, int32_t* v, int32_t* h, int32_t* d) {
  adm::dwt_horizontal_s123(lo, hi, taps, out_width, scale, a, v, h, d);
}
void VerticalS1(const int16_t* const rows[4], int width, int32_t* lo, int32_t* hi) {
  adm::dwt_vertical_s1(rows, width, lo, hi);
}
#else

using D32 = hn::ScalableTag<int32_t>;
using D16 = hn::Rebind<int16_t, D32>;  // one int16 per int32 lane: the narrowed outputs

// The vertical passes read two rows new to them for each output row, from a
// picture or band too large for the caches by then: asking for them this many
// bytes ahead hides most of the wait (a hint only: the values are the same).
constexpr size_t kPrefetchBytes = 2048;
template <typename T>
HWY_INLINE void PrefetchAhead(const T* p) {
  // The address as an integer: past a band's last row it points at no object.
  hwy::Prefetch(reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(p) + kPrefetchBytes));
}

// Pairs of int16 in the halves of int32 lanes (the widening multiply-adds' inputs).
using D16x2 = hn::Repartition<int16_t, D32>;

// The taps (filter[k], filter[k + 1]) in every int32 lane, as int16 pairs.
HWY_INLINE hn::Vec<D16x2> TapPair(const int32_t* filter, int k) {
  const uint32_t pair = uint32_t(uint16_t(filter[k])) | (uint32_t(uint16_t(filter[k + 1])) << 16);
  return hn::BitCast(D16x2(), hn::Set(D32(), int32_t(pair)));
}

// One filter over rows paired in the int16 halves of int32 lanes, p01 = (s0,
// s1) and p23 = (s2, s3): two pair multiply-adds (every product below 2^30),
// summed after the rearrangement (see FilterStore on NEON's pairing).
HWY_INLINE hn::Vec<D32> PairTaps(hn::Vec<D16x2> p01, hn::Vec<D16x2> p23, hn::Vec<D16x2> taps01,
                                 hn::Vec<D16x2> taps23) {
  const D32 d;
  auto odd = hn::Zero(d);
  const auto sum = hn::ReorderWidenMulAccumulate(d, p01, taps01, hn::Zero(d), odd);
  return hn::RearrangeToOddPlusEven(hn::ReorderWidenMulAccumulate(d, p23, taps23, sum, odd), odd);
}

// Samples `first` and `second` of columns j .. j + N - 1 (below 2^15) as the
// int16 pairs (first, second) of N int32 lanes.
template <typename Sample>
HWY_INLINE hn::Vec<D16x2> SamplePairs(const Sample* first, const Sample* second, size_t j) {
  const hn::RebindToUnsigned<D32> du;
  const hn::Rebind<Sample, D32> ds;
  const auto a = hn::PromoteTo(du, hn::LoadU(ds, first + j));
  const auto b = hn::PromoteTo(du, hn::LoadU(ds, second + j));
  return hn::BitCast(D16x2(), hn::Or(a, hn::ShiftLeft<16>(b)));
}

// sum over k of filter[k] * s_k.
HWY_INLINE hn::Vec<D32> Taps4(D32 d, const int32_t* filter, hn::Vec<D32> s0, hn::Vec<D32> s1,
                              hn::Vec<D32> s2, hn::Vec<D32> s3) {
  const auto a = hn::Add(hn::Mul(s0, hn::Set(d, filter[0])), hn::Mul(s1, hn::Set(d, filter[1])));
  const auto b = hn::Add(hn::Mul(s2, hn::Set(d, filter[2])), hn::Mul(s3, hn::Set(d, filter[3])));
  return hn::Add(a, b);
}

template <typename Sample>
void Vertical(const Sample* const rows[4], int width, int bitdepth, int16_t* HWY_RESTRICT lo,
              int16_t* HWY_RESTRICT hi) {
  const D32 d;
  const D16 d16;
  const hn::Rebind<Sample, D32> ds;
  const size_t lanes = hn::Lanes(d);
  const int32_t half = int32_t{1} << (bitdepth - 1);
  // The low-pass output's centring and rounding, one constant (in int32 range).
  const auto lo_offset = hn::Set(d, static_cast<int32_t>(half - int64_t{kDwtLowSum} * half));
  const auto hi_offset = hn::Set(d, half);
  size_t j = 0;
  if (sizeof(Sample) == 1 || bitdepth <= 15) {
    // Samples of 8..15 bits lie below 2^15 (in range: see the file's head):
    // rows 0 and 1, and rows 2 and 3, as int16 pairs, each filter two pair
    // multiply-adds. Every sum is the int32 one below, exactly (|sum| <=
    // 54822 * (2^15 - 1) < 2^31, the centring then in range too).
    const auto low01 = TapPair(kDwtLow, 0), low23 = TapPair(kDwtLow, 2);
    const auto high01 = TapPair(kDwtHigh, 0), high23 = TapPair(kDwtHigh, 2);
#if HWY_ARCH_X86
    // Twice the columns a step: each row's 2N samples as int16 lanes, paired
    // with the next row's by interleaving within each 128-bit block, and the
    // two halves' sums narrowed by one pack, which also works within blocks
    // and so puts the columns back in order (x86's interleave and pack).
    const D16x2 d16x2;
    const auto row16 = [&](const Sample* p) {
      if constexpr (sizeof(Sample) == 1)
        return hn::BitCast(d16x2, hn::PromoteTo(hn::RebindToUnsigned<D16x2>(),
                                                hn::LoadU(hn::Rebind<uint8_t, D16x2>(), p + j)));
      else
        return hn::BitCast(d16x2, hn::LoadU(hn::RebindToUnsigned<D16x2>(), p + j));
    };
    const auto filter = [&](hn::Vec<D16x2> p01, hn::Vec<D16x2> p23, hn::Vec<D16x2> taps01,
                            hn::Vec<D16x2> taps23, hn::Vec<D32> offset) {
      return hn::ShiftRightSame(hn::Add(PairTaps(p01, p23, taps01, taps23), offset), bitdepth);
    };
    // The next output row's two new rows (one and two strides past rows[3]
    // inside the picture; any address elsewhere, a hint only), asked for as
    // this row's columns pass: the work between the two rows hides their wait.
    const intptr_t stride =
        reinterpret_cast<intptr_t>(rows[3]) - reinterpret_cast<intptr_t>(rows[2]);
    const uintptr_t next1 = reinterpret_cast<uintptr_t>(rows[3]) + uintptr_t(stride);
    const uintptr_t next2 = next1 + uintptr_t(stride);
    for (; j + 2 * lanes <= size_t(width); j += 2 * lanes) {
      hwy::Prefetch(reinterpret_cast<const uint8_t*>(next1 + j * sizeof(Sample)));
      hwy::Prefetch(reinterpret_cast<const uint8_t*>(next2 + j * sizeof(Sample)));
      const auto r0 = row16(rows[0]), r1 = row16(rows[1]);
      const auto r2 = row16(rows[2]), r3 = row16(rows[3]);
      const auto p01_lower = hn::InterleaveLower(d16x2, r0, r1);
      const auto p01_upper = hn::InterleaveUpper(d16x2, r0, r1);
      const auto p23_lower = hn::InterleaveLower(d16x2, r2, r3);
      const auto p23_upper = hn::InterleaveUpper(d16x2, r2, r3);
      hn::StoreU(hn::ReorderDemote2To(d16x2, filter(p01_lower, p23_lower, low01, low23, lo_offset),
                                      filter(p01_upper, p23_upper, low01, low23, lo_offset)),
                 d16x2, lo + j);
      if (hi == nullptr) continue;
      hn::StoreU(
          hn::ReorderDemote2To(d16x2, filter(p01_lower, p23_lower, high01, high23, hi_offset),
                               filter(p01_upper, p23_upper, high01, high23, hi_offset)),
          d16x2, hi + j);
    }
#endif
    for (; j + lanes <= size_t(width); j += lanes) {
      PrefetchAhead(rows[2] + j);
      PrefetchAhead(rows[3] + j);
      const auto p01 = SamplePairs(rows[0], rows[1], j), p23 = SamplePairs(rows[2], rows[3], j);
      const auto l =
          hn::ShiftRightSame(hn::Add(PairTaps(p01, p23, low01, low23), lo_offset), bitdepth);
      hn::StoreU(hn::DemoteTo(d16, l), d16, lo + j);
      if (hi == nullptr) continue;
      const auto h =
          hn::ShiftRightSame(hn::Add(PairTaps(p01, p23, high01, high23), hi_offset), bitdepth);
      hn::StoreU(hn::DemoteTo(d16, h), d16, hi + j);
    }
  }
  for (; j + lanes <= size_t(width); j += lanes) {
    const auto s0 = hn::PromoteTo(d, hn::LoadU(ds, rows[0] + j));
    const auto s1 = hn::PromoteTo(d, hn::LoadU(ds, rows[1] + j));
    const auto s2 = hn::PromoteTo(d, hn::LoadU(ds, rows[2] + j));
    const auto s3 = hn::PromoteTo(d, hn::LoadU(ds, rows[3] + j));
    const auto l =
        hn::ShiftRightSame(hn::Add(Taps4(d, kDwtLow, s0, s1, s2, s3), lo_offset), bitdepth);
    hn::StoreU(hn::DemoteTo(d16, l), d16, lo + j);
    if (hi == nullptr) continue;
    const auto h =
        hn::ShiftRightSame(hn::Add(Taps4(d, kDwtHigh, s0, s1, s2, s3), hi_offset), bitdepth);
    hn::StoreU(hn::DemoteTo(d16, h), d16, hi + j);
  }
  if (j < size_t(width)) {
    const Sample* tail[4] = {rows[0] + j, rows[1] + j, rows[2] + j, rows[3] + j};
    int16_t* hi_tail = hi ? hi + j : nullptr;
    if constexpr (sizeof(Sample) == 1)
      adm::dwt0_vertical(tail, width - int(j), lo + j, hi_tail);
    else
      adm::dwt0_vertical(tail, width - int(j), bitdepth, lo + j, hi_tail);
  }
}

void Vertical8(const uint8_t* const rows[4], int width, int16_t* lo, int16_t* hi) {
  Vertical(rows, width, 8, lo, hi);
}
void Vertical16(const uint16_t* const rows[4], int width, int bitdepth, int16_t* lo, int16_t* hi) {
  Vertical(rows, width, bitdepth, lo, hi);
}

// Output j of an inner column reads x[2j - 1] .. x[2j + 2]. Two loads of 2N
// int16 seen as N int32 pairs give them: at 2j - 1 the pairs (x[2j-1], x[2j]),
// at 2j + 1 the pairs (x[2j+1], x[2j+2]); the low half of a pair is its
// first sample (Highway's targets are little-endian). Each int32 lane's pair
// times the filter's pair of taps, summed, is one widening multiply-add of
// int16 lanes (pmaddwd): x[2j-1] f0 + x[2j] f1 from the first load and
// x[2j+1] f2 + x[2j+2] f3 from the second, with no pair near the one
// product pair that would overflow (both -32768: the taps are smaller).
HWY_INLINE hn::Vec<D16x2> LoadPairs(const int16_t* p) { return hn::LoadU(D16x2(), p); }

// The rounding constant joins after the rearrangement: a widening multiply-add
// may keep its products in other lanes of its accumulators until then (NEON's
// pairs them only in RearrangeToOddPlusEven, which would add a constant
// started in the accumulator twice).
HWY_INLINE void FilterStore(hn::Vec<D16x2> taps01, hn::Vec<D16x2> taps23, hn::Vec<D16x2> a,
                            hn::Vec<D16x2> b, int16_t* out) {
  const D32 d;
  const D16 d16;
  auto odd = hn::Zero(d);
  auto sum = hn::ReorderWidenMulAccumulate(d, a, taps01, hn::Zero(d), odd);
  sum = hn::ReorderWidenMulAccumulate(d, b, taps23, sum, odd);
  // |sum| <= 54822 * 32768 + 32768
  sum = hn::Add(hn::RearrangeToOddPlusEven(sum, odd), hn::Set(d, 32768));
  hn::StoreU(hn::DemoteTo(d16, hn::ShiftRight<16>(sum)), d16, out);
}

void Horizontal0(const int16_t* lo, const int16_t* hi, const std::array<int, 4>* taps,
                 int out_width, int16_t* a, int16_t* v, int16_t* h, int16_t* d) {
  const D32 d32;
  const size_t lanes = hn::Lanes(d32);
  // Outputs 1 .. out_width - 2 read inside the row unmirrored (dwt_taps()).
  const size_t inner_end = out_width >= 2 ? size_t(out_width - 1) : 0;
  // Where the inner outputs hold a vector, the last one ends at inner_end,
  // over some outputs written already (the same values again).
  const size_t vector_end = inner_end >= lanes + 1 ? inner_end : 1;
  const auto low01 = TapPair(kDwtLow, 0), low23 = TapPair(kDwtLow, 2);
  const auto high01 = TapPair(kDwtHigh, 0), high23 = TapPair(kDwtHigh, 2);
  if (inner_end >= 2 * lanes + 1) {
    // 2N outputs a step: (sum + 2^15) >> 16 is the high int16 half of each
    // int32 lane (in range, see FilterStore), so one ConcatOdd of the two
    // sums' vectors narrows them in order, with no shifts or packs.
    const D16x2 dw;
    const auto rounded = [&](hn::Vec<D16x2> taps01, hn::Vec<D16x2> taps23, hn::Vec<D16x2> x,
                             hn::Vec<D16x2> y) {
      auto odd = hn::Zero(d32);
      auto sum = hn::ReorderWidenMulAccumulate(d32, x, taps01, hn::Zero(d32), odd);
      sum = hn::ReorderWidenMulAccumulate(d32, y, taps23, sum, odd);
      return hn::BitCast(dw, hn::Add(hn::RearrangeToOddPlusEven(sum, odd), hn::Set(d32, 32768)));
    };
    const size_t end = inner_end;
    for (size_t next = 1; next < end; next += 2 * lanes) {
      const size_t j = std::min(next, end - 2 * lanes);
      const size_t k = j + lanes;
      const auto lo_a0 = LoadPairs(lo + 2 * j - 1), lo_b0 = LoadPairs(lo + 2 * j + 1);
      const auto lo_a1 = LoadPairs(lo + 2 * k - 1), lo_b1 = LoadPairs(lo + 2 * k + 1);
      hn::StoreU(hn::ConcatOdd(dw, rounded(low01, low23, lo_a1, lo_b1),
                               rounded(low01, low23, lo_a0, lo_b0)),
                 dw, a + j);
      if (hi == nullptr) continue;
      hn::StoreU(hn::ConcatOdd(dw, rounded(high01, high23, lo_a1, lo_b1),
                               rounded(high01, high23, lo_a0, lo_b0)),
                 dw, v + j);
      const auto hi_a0 = LoadPairs(hi + 2 * j - 1), hi_b0 = LoadPairs(hi + 2 * j + 1);
      const auto hi_a1 = LoadPairs(hi + 2 * k - 1), hi_b1 = LoadPairs(hi + 2 * k + 1);
      hn::StoreU(hn::ConcatOdd(dw, rounded(low01, low23, hi_a1, hi_b1),
                               rounded(low01, low23, hi_a0, hi_b0)),
                 dw, h + j);
      hn::StoreU(hn::ConcatOdd(dw, rounded(high01, high23, hi_a1, hi_b1),
                               rounded(high01, high23, hi_a0, hi_b0)),
                 dw, d + j);
    }
  } else {
    for (size_t next = 1; next < vector_end; next += lanes) {
      const size_t j = std::min(next, vector_end - lanes);
      const auto lo_a = LoadPairs(lo + 2 * j - 1), lo_b = LoadPairs(lo + 2 * j + 1);
      FilterStore(low01, low23, lo_a, lo_b, a + j);
      if (hi == nullptr) continue;
      FilterStore(high01, high23, lo_a, lo_b, v + j);
      const auto hi_a = LoadPairs(hi + 2 * j - 1), hi_b = LoadPairs(hi + 2 * j + 1);
      FilterStore(low01, low23, hi_a, hi_b, h + j);
      FilterStore(high01, high23, hi_a, hi_b, d + j);
    }
  }
  const size_t j = vector_end;
  // Output 0 and those past the vectors, by the reference on their taps.
  const auto scalar = [&](size_t from, size_t to) {
    if (to <= from) return;
    const bool low_only = hi == nullptr;
    adm::dwt0_horizontal(lo, hi, taps + from, int(to - from), a + from,
                         low_only ? nullptr : v + from, low_only ? nullptr : h + from,
                         low_only ? nullptr : d + from);
  };
  scalar(0, out_width > 0 ? 1 : 0);
  scalar(j > size_t(out_width) ? size_t(out_width) : j, size_t(out_width));
}

// Scale 1 from the 16-bit a band: rows 0 and 1, and rows 2 and 3, paired in
// the int16 halves of int32 lanes, each filter two pair multiply-adds as in
// Horizontal0: every product below 2^30, the sums below 54822 * 2^15 < 2^31,
// exact in int32, as the reference's int64 sums (no rounding or shift here).
void VerticalS1(const int16_t* const rows[4], int width, int32_t* HWY_RESTRICT lo,
                int32_t* HWY_RESTRICT hi) {
  const D32 d;
  const hn::RebindToUnsigned<D32> du;
  const hn::Rebind<uint16_t, D32> du16;
  const size_t lanes = hn::Lanes(d);
  const auto low01 = TapPair(kDwtLow, 0), low23 = TapPair(kDwtLow, 2);
  const auto high01 = TapPair(kDwtHigh, 0), high23 = TapPair(kDwtHigh, 2);
  const auto filter = [&](hn::Vec<D16x2> p01, hn::Vec<D16x2> p23, hn::Vec<D16x2> taps01,
                          hn::Vec<D16x2> taps23) {
    auto odd = hn::Zero(d);
    const auto sum = hn::ReorderWidenMulAccumulate(d, p01, taps01, hn::Zero(d), odd);
    return hn::RearrangeToOddPlusEven(hn::ReorderWidenMulAccumulate(d, p23, taps23, sum, odd), odd);
  };
  const auto pair = [&](const int16_t* first, const int16_t* second, size_t j) {
    const auto a = hn::PromoteTo(du, hn::LoadU(du16, reinterpret_cast<const uint16_t*>(first + j)));
    const auto b =
        hn::PromoteTo(du, hn::LoadU(du16, reinterpret_cast<const uint16_t*>(second + j)));
    return hn::BitCast(D16x2(), hn::Or(a, hn::ShiftLeft<16>(b)));
  };
  size_t j = 0;
  // The next output row's two new rows, as at scale 0 (Vertical).
  const intptr_t stride = reinterpret_cast<intptr_t>(rows[3]) - reinterpret_cast<intptr_t>(rows[2]);
  const uintptr_t next1 = reinterpret_cast<uintptr_t>(rows[3]) + uintptr_t(stride);
  const uintptr_t next2 = next1 + uintptr_t(stride);
  for (; j + lanes <= size_t(width); j += lanes) {
    hwy::Prefetch(reinterpret_cast<const uint8_t*>(next1 + j * sizeof(int16_t)));
    hwy::Prefetch(reinterpret_cast<const uint8_t*>(next2 + j * sizeof(int16_t)));
    const auto p01 = pair(rows[0], rows[1], j), p23 = pair(rows[2], rows[3], j);
    hn::StoreU(filter(p01, p23, low01, low23), d, lo + j);
    if (hi != nullptr) hn::StoreU(filter(p01, p23, high01, high23), d, hi + j);
  }
  if (j < size_t(width)) {
    const int16_t* tail[4] = {rows[0] + j, rows[1] + j, rows[2] + j, rows[3] + j};
    adm::dwt_vertical_s1(tail, width - int(j), lo + j, hi ? hi + j : nullptr);
  }
}

#if HWY_TARGET == HWY_SSSE3
// SSSE3 lacks the signed 32x32 -> 64-bit multiply and 64-bit lane shifts;
// emulated, they make the scale 1..3 passes slower than the scalar reference.
void VerticalS123(const int32_t* const rows[4], int width, int scale, int32_t* lo, int32_t* hi) {
  adm::dwt_vertical_s123(rows, width, scale, lo, hi);
}
void HorizontalS123(const int32_t* lo, const int32_t* hi, const std::array<int, 4>* taps,
                    int out_width, int scale, int32_t* a, int32_t* v, int32_t* h, int32_t* d) {
  adm::dwt_horizontal_s123(lo, hi, taps, out_width, scale, a, v, h, d);
}
#else
// ---- scales 1..3: int32 bands, int64 sums. Each product is MulEven of
// int32 lanes (the even lanes, then the odd ones moved down), the sums are
// int64 lanes, and the rounded, shifted sum keeps its low 32 bits as the
// reference's cast does.
using D64 = hn::Repartition<int64_t, D32>;
using V64 = hn::Vec<D64>;

HWY_INLINE V64 Taps4Wide(D32 d, const int32_t* filter, hn::Vec<D32> s0, hn::Vec<D32> s1,
                         hn::Vec<D32> s2, hn::Vec<D32> s3) {
  const V64 a =
      hn::Add(hn::MulEven(s0, hn::Set(d, filter[0])), hn::MulEven(s1, hn::Set(d, filter[1])));
  const V64 b =
      hn::Add(hn::MulEven(s2, hn::Set(d, filter[2])), hn::MulEven(s3, hn::Set(d, filter[3])));
  return hn::Add(a, b);
}

// Rounding and shift of the passes at scales 1, 2, 3 (dwt.cpp's).
constexpr int64_t kVerticalRoundS123[3] = {0, 32768, 32768};
constexpr int kVerticalShiftS123[3] = {0, 16, 16};
constexpr int64_t kHorizontalRoundS123[3] = {16384, 32768, 16384};
constexpr int kHorizontalShiftS123[3] = {15, 16, 15};

void VerticalS123(const int32_t* const rows[4], int width, int scale, int32_t* HWY_RESTRICT lo,
                  int32_t* HWY_RESTRICT hi) {
  const D32 d;
  const D64 d64;
  const size_t lanes = hn::Lanes(d);
  const V64 round = hn::Set(d64, kVerticalRoundS123[scale - 1]);
  const int shift = kVerticalShiftS123[scale - 1];
  const auto finish = [&](V64 even, V64 odd) {
    const V64 e = hn::ShiftRightSame(hn::Add(even, round), shift);
    const V64 o = hn::ShiftRightSame(hn::Add(odd, round), shift);
    return hn::OddEven(hn::BitCast(d, hn::ShiftLeft<32>(o)), hn::BitCast(d, e));
  };
  size_t j = 0;
  // The next output row's two new rows, as at scale 0 (Vertical).
  const intptr_t stride = reinterpret_cast<intptr_t>(rows[3]) - reinterpret_cast<intptr_t>(rows[2]);
  const uintptr_t next1 = reinterpret_cast<uintptr_t>(rows[3]) + uintptr_t(stride);
  const uintptr_t next2 = next1 + uintptr_t(stride);
  for (; j + lanes <= size_t(width); j += lanes) {
    hwy::Prefetch(reinterpret_cast<const uint8_t*>(next1 + j * sizeof(int32_t)));
    hwy::Prefetch(reinterpret_cast<const uint8_t*>(next2 + j * sizeof(int32_t)));
    const auto s0 = hn::LoadU(d, rows[0] + j), s1 = hn::LoadU(d, rows[1] + j);
    const auto s2 = hn::LoadU(d, rows[2] + j), s3 = hn::LoadU(d, rows[3] + j);
    const auto o0 = OddLanesDown(d, s0), o1 = OddLanesDown(d, s1);
    const auto o2 = OddLanesDown(d, s2), o3 = OddLanesDown(d, s3);
    hn::StoreU(finish(Taps4Wide(d, kDwtLow, s0, s1, s2, s3), Taps4Wide(d, kDwtLow, o0, o1, o2, o3)),
               d, lo + j);
    if (hi == nullptr) continue;
    hn::StoreU(
        finish(Taps4Wide(d, kDwtHigh, s0, s1, s2, s3), Taps4Wide(d, kDwtHigh, o0, o1, o2, o3)), d,
        hi + j);
  }
  if (j < size_t(width)) {
    const int32_t* tail[4] = {rows[0] + j, rows[1] + j, rows[2] + j, rows[3] + j};
    adm::dwt_vertical_s123(tail, width - int(j), scale, lo + j, hi ? hi + j : nullptr);
  }
}

// Outputs j .. j + N/2 - 1 (N int32 lanes) of one filter over x: the int64
// lanes of the loads at 2j - 1 and 2j + 1 hold the pairs (x[2j-1], x[2j])
// and (x[2j+1], x[2j+2]), as in the scale-0 pass.
HWY_INLINE V64 HalfOutputs(D32 d, const int32_t* filter, const int32_t* x, size_t j) {
  const auto a = hn::LoadU(d, x + 2 * j - 1), b = hn::LoadU(d, x + 2 * j + 1);
  return Taps4Wide(d, filter, a, OddLanesDown(d, a), b, OddLanesDown(d, b));
}

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
// The horizontal pass at scales 1..3 in int16 pairs, where AVX-512 gathers
// the int16 halves of two vectors in order in one permute (ConcatOdd,
// ConcatEven). Each x = 2^16 xh + xl (xh = x >> 16, xl = x & 0xFFFF), so that
// the sum over the taps f_k x_k is 2^16 Sh + Sl + 2^15 F, with Sh the taps
// times the xh, Sl times the xl - 2^15 (signed), F the taps' sum: Sh and Sl
// each two pair multiply-adds, below 54822 * 2^15 < 2^31 in magnitude. With
// K = 2^15 F + round = Kh 2^shift + Kl (0 <= Kl < 2^shift), the output
// (sum + round) >> shift is 2^(16 - shift) Sh + Kh + ((Sl + Kl) >> shift)
// exactly, kept modulo 2^32 as the reference's cast keeps its low 32 bits.
template <int kShift>
void HorizontalS123Split(const int32_t* lo, const int32_t* hi, size_t vector_end, int64_t round,
                         int32_t* a, int32_t* v, int32_t* h, int32_t* d) {
  const D32 d32;
  const D16x2 dw;
  const size_t lanes = hn::Lanes(d32);
  const auto low01 = TapPair(kDwtLow, 0), low23 = TapPair(kDwtLow, 2);
  const auto high01 = TapPair(kDwtHigh, 0), high23 = TapPair(kDwtHigh, 2);
  const auto constants = [&](int64_t tap_sum, hn::Vec<D32>& kh, hn::Vec<D32>& kl) {
    const int64_t k = (tap_sum << 15) + round;
    kh = hn::Set(d32, static_cast<int32_t>(k >> kShift));
    kl = hn::Set(d32, static_cast<int32_t>(k & ((int64_t{1} << kShift) - 1)));
  };
  hn::Vec<D32> low_kh, low_kl, high_kh, high_kl;
  constants(kDwtLow[0] + kDwtLow[1] + kDwtLow[2] + kDwtLow[3], low_kh, low_kl);
  constants(kDwtHigh[0] + kDwtHigh[1] + kDwtHigh[2] + kDwtHigh[3], high_kh, high_kl);
  const auto offset = hn::Set(dw, int16_t{-32768});  // xl - 2^15 is xl ^ 0x8000 as int16
  struct Split {
    hn::Vec<D16x2> h01, h23, l01, l23;
  };
  // The pairs (x[2j-1], x[2j]) and (x[2j+1], x[2j+2]) of outputs j .. j + N - 1.
  const auto split = [&](const int32_t* x, size_t j) {
    const auto halves = [&](size_t at, hn::Vec<D16x2>& high, hn::Vec<D16x2>& low) {
      const auto first = hn::BitCast(dw, hn::LoadU(d32, x + at));
      const auto second = hn::BitCast(dw, hn::LoadU(d32, x + at + lanes));
      high = hn::ConcatOdd(dw, second, first);
      low = hn::Xor(hn::ConcatEven(dw, second, first), offset);
    };
    Split out;
    halves(2 * j - 1, out.h01, out.l01);
    halves(2 * j + 1, out.h23, out.l23);
    return out;
  };
  const auto filter = [&](const Split& x, hn::Vec<D16x2> taps01, hn::Vec<D16x2> taps23,
                          hn::Vec<D32> kh, hn::Vec<D32> kl, int32_t* out) {
    const auto sh = PairTaps(x.h01, x.h23, taps01, taps23);
    const auto sl = PairTaps(x.l01, x.l23, taps01, taps23);
    const auto high = kShift == 15 ? hn::Add(sh, sh) : sh;
    hn::StoreU(hn::Add(hn::Add(high, kh), hn::ShiftRight<kShift>(hn::Add(sl, kl))), d32, out);
  };
  for (size_t next = 1; next < vector_end; next += lanes) {
    const size_t j = std::min(next, vector_end - lanes);
    const Split l = split(lo, j);
    filter(l, low01, low23, low_kh, low_kl, a + j);
    if (hi == nullptr) continue;
    filter(l, high01, high23, high_kh, high_kl, v + j);
    const Split x = split(hi, j);
    filter(x, low01, low23, low_kh, low_kl, h + j);
    filter(x, high01, high23, high_kh, high_kl, d + j);
  }
}
#endif

void HorizontalS123(const int32_t* lo, const int32_t* hi, const std::array<int, 4>* taps,
                    int out_width, int scale, int32_t* a, int32_t* v, int32_t* h, int32_t* d) {
  const D32 d32;
  const D64 d64;
  const size_t lanes = hn::Lanes(d32), half = lanes / 2;
  const V64 round = hn::Set(d64, kHorizontalRoundS123[scale - 1]);
  const int shift = kHorizontalShiftS123[scale - 1];
  const auto store = [&](const int32_t* filter, const int32_t* x, size_t j, int32_t* out) {
    const V64 first = hn::ShiftRightSame(hn::Add(HalfOutputs(d32, filter, x, j), round), shift);
    const V64 second =
        hn::ShiftRightSame(hn::Add(HalfOutputs(d32, filter, x, j + half), round), shift);
    hn::StoreU(hn::ConcatEven(d32, hn::BitCast(d32, second), hn::BitCast(d32, first)), d32,
               out + j);
  };
  const size_t inner_end = out_width >= 2 ? size_t(out_width - 1) : 0;
  // As at scale 0: the last vector of inner outputs ends at inner_end.
  const size_t vector_end = inner_end >= lanes + 1 ? inner_end : 1;
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  (void)store;
  if (shift == 15)
    HorizontalS123Split<15>(lo, hi, vector_end, kHorizontalRoundS123[scale - 1], a, v, h, d);
  else
    HorizontalS123Split<16>(lo, hi, vector_end, kHorizontalRoundS123[scale - 1], a, v, h, d);
#else
  for (size_t next = 1; next < vector_end; next += lanes) {
    const size_t j = std::min(next, vector_end - lanes);
    store(kDwtLow, lo, j, a);
    if (hi == nullptr) continue;
    store(kDwtHigh, lo, j, v);
    store(kDwtLow, hi, j, h);
    store(kDwtHigh, hi, j, d);
  }
#endif
  const size_t j = vector_end;
  const auto scalar = [&](size_t from, size_t to) {
    if (to <= from) return;
    if (hi == nullptr)
      adm::dwt_horizontal_s123(lo, nullptr, taps + from, int(to - from), scale, a + from, nullptr,
                               nullptr, nullptr);
    else
      adm::dwt_horizontal_s123(lo, hi, taps + from, int(to - from), scale, a + from, v + from,
                               h + from, d + from);
  };
  scalar(0, out_width > 0 ? 1 : 0);
  scalar(j > size_t(out_width) ? size_t(out_width) : j, size_t(out_width));
}
#endif  // HWY_TARGET == HWY_SSSE3

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace exactvq::adm::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::adm::cpu {

HWY_EXPORT(Vertical8);
HWY_EXPORT(Vertical16);
HWY_EXPORT(Horizontal0);
HWY_EXPORT(VerticalS123);
HWY_EXPORT(HorizontalS123);
HWY_EXPORT(VerticalS1);

void dwt0_vertical8(const uint8_t* const rows[4], int width, int16_t* lo, int16_t* hi) {
  HWY_DYNAMIC_DISPATCH(Vertical8)(rows, width, lo, hi);
}
void dwt0_vertical16(const uint16_t* const rows[4], int width, int bitdepth, int16_t* lo,
                     int16_t* hi) {
  HWY_DYNAMIC_DISPATCH(Vertical16)(rows, width, bitdepth, lo, hi);
}
void dwt0_horizontal(const int16_t* lo, const int16_t* hi, const std::array<int, 4>* taps,
                     int out_width, int16_t* a, int16_t* v, int16_t* h, int16_t* d) {
  HWY_DYNAMIC_DISPATCH(Horizontal0)(lo, hi, taps, out_width, a, v, h, d);
}
void dwt_vertical_s123(const int32_t* const rows[4], int width, int scale, int32_t* lo,
                       int32_t* hi) {
  HWY_DYNAMIC_DISPATCH(VerticalS123)(rows, width, scale, lo, hi);
}
void dwt_horizontal_s123(const int32_t* lo, const int32_t* hi, const std::array<int, 4>* taps,
                         int out_width, int scale, int32_t* a, int32_t* v, int32_t* h, int32_t* d) {
  HWY_DYNAMIC_DISPATCH(HorizontalS123)(lo, hi, taps, out_width, scale, a, v, h, d);
}
void dwt_vertical_s1(const int16_t* const rows[4], int width, int32_t* lo, int32_t* hi) {
  HWY_DYNAMIC_DISPATCH(VerticalS1)(rows, width, lo, hi);
}

}  // namespace exactvq::adm::cpu
#endif  // HWY_ONCE
