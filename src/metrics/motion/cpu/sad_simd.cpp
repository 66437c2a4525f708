// Motion's SAD as a Highway kernel, the twin of sad_reference.cpp; every target
// Highway offers is compiled in and the best one runs. All arithmetic is in
// integers whose lanes provably do not overflow, so the sum is the
// reference's bit for bit on every target.
#include <cstdlib>
#include <vector>

#include "metrics/motion/sad.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/motion/cpu/sad_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "backends/cpu/pair_products-inl.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::motion::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D32 = hn::ScalableTag<int32_t>;

// The symmetric 5-tap filter: t0 (v0 + v4) + t1 (v1 + v3) + t2 v2.
HWY_INLINE hn::Vec<D32> Filter5(D32 d, hn::Vec<D32> v0, hn::Vec<D32> v1, hn::Vec<D32> v2,
                                hn::Vec<D32> v3, hn::Vec<D32> v4) {
  const auto outer = hn::Mul(hn::Add(v0, v4), hn::Set(d, kTap[0]));
  const auto inner = hn::Mul(hn::Add(v1, v3), hn::Set(d, kTap[1]));
  return hn::Add(hn::Add(outer, inner), hn::Mul(v2, hn::Set(d, kTap[2])));
}

template <typename Sample>
HWY_INLINE hn::Vec<D32> LoadDifference(D32 d, const Sample* p, const Sample* c, size_t x) {
  const hn::Rebind<Sample, D32> ds;
  return hn::Sub(hn::BitCast(d, hn::PromoteTo(hn::Rebind<uint32_t, D32>(), hn::LoadU(ds, p + x))),
                 hn::BitCast(d, hn::PromoteTo(hn::Rebind<uint32_t, D32>(), hn::LoadU(ds, c + x))));
}

// Vertical blur of prev - cur for one row into `out` (w values). Below 16
// bits each |difference| < 2^15 and the taps sum to 2^16, so the sum fits in
// int32; at 16 bits it may reach 2^32 and is made in int64 lanes (scalar here:
// 16-bit video is rare, the rows below are what matter).
template <typename Sample>
void VerticalBlur(const Sample* const p[kTaps], const Sample* const c[kTaps], int w, int bitdepth,
                  int32_t* HWY_RESTRICT out) {
  const D32 d;
  const size_t lanes = hn::Lanes(d);
  const int32_t round = int32_t{1} << (bitdepth - 1);
  size_t x = 0;
  if (bitdepth < 16) {
    const auto r = hn::Set(d, round);
    for (; x + lanes <= size_t(w); x += lanes) {
      const auto sum = Filter5(d, LoadDifference(d, p[0], c[0], x),
                               LoadDifference(d, p[1], c[1], x), LoadDifference(d, p[2], c[2], x),
                               LoadDifference(d, p[3], c[3], x), LoadDifference(d, p[4], c[4], x));
      hn::StoreU(hn::ShiftRightSame(hn::Add(sum, r), bitdepth), d, out + x);
    }
  }
  for (; x < size_t(w); ++x) {
    int64_t sum = 0;
    for (int k = 0; k < kTaps; ++k) sum += int64_t{kTap[k]} * (int32_t(p[k][x]) - int32_t(c[k][x]));
    out[x] = int32_t((sum + round) >> bitdepth);
  }
}

// Sum over one row of |(horizontal blur of b + 2^15) >> 16|, b the vertical
// blur with two mirrored samples each side (b[-2] .. b[w + 1]) and room for a
// vector past the end. |b| < 2^16, so the full sum may reach 2^32: it is
// split as b = 256 hi + lo (lo in [0, 255]) and the two filtered halves,
// each below 2^24, recombined with nested floor divisions:
// (256 H + L + 2^15) >> 16 = (H + ((L + 2^15) >> 8)) >> 8.
uint32_t HorizontalSad(const int32_t* b, int w) {
  const D32 d;
  const size_t lanes = hn::Lanes(d);
  const auto low_mask = hn::Set(d, 255);
  const auto round = hn::Set(d, 1 << 15);
  auto acc = hn::Zero(d);
  for (size_t x = 0; x < size_t(w); x += lanes) {
    // Named vectors, not arrays: SVE's vectors cannot be array elements.
    const int32_t* at = b + ptrdiff_t(x) - kRadius;
    const auto v0 = hn::LoadU(d, at), v1 = hn::LoadU(d, at + 1), v2 = hn::LoadU(d, at + 2);
    const auto v3 = hn::LoadU(d, at + 3), v4 = hn::LoadU(d, at + 4);
    const auto sum_hi =
        Filter5(d, hn::ShiftRight<8>(v0), hn::ShiftRight<8>(v1), hn::ShiftRight<8>(v2),
                hn::ShiftRight<8>(v3), hn::ShiftRight<8>(v4));
    const auto sum_lo =
        Filter5(d, hn::And(v0, low_mask), hn::And(v1, low_mask), hn::And(v2, low_mask),
                hn::And(v3, low_mask), hn::And(v4, low_mask));
    const auto value =
        hn::ShiftRight<8>(hn::Add(sum_hi, hn::ShiftRight<8>(hn::Add(sum_lo, round))));
    const auto magnitude = hn::Abs(value);
    const size_t left = size_t(w) - x;
    acc = hn::Add(acc,
                  left >= lanes ? magnitude : hn::IfThenElseZero(hn::FirstN(d, left), magnitude));
  }
  // Lanes and their total wrap modulo 2^32, as the reference's uint32 row sum.
  const hn::RebindToUnsigned<D32> du;
  // Lane by lane modulo 2^32, as the reference's uint32 row sum (a reduction
  // intrinsic would add in signed int).
  uint32_t each[HWY_MAX_BYTES / sizeof(uint32_t)];
  hn::StoreU(hn::BitCast(du, acc), du, each);
  uint32_t total = 0;
  for (size_t i = 0; i < hn::Lanes(du); ++i) total += each[i];
  return total;
}

template <typename Sample>
uint64_t SadRows(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  const int w = cur.width;
  const size_t lanes = hn::Lanes(D32());
  // kRadius mirrored samples before the row, kRadius after, then a vector's room.
  std::vector<int32_t> padded(size_t(w) + 2 * kRadius + lanes, 0);
  int32_t* blurred = padded.data() + kRadius;
  uint64_t sad = 0;
  for (int y = y0; y < y1; ++y) {
    const Sample* p[kTaps];
    const Sample* c[kTaps];
    tap_rows(prev, cur, y, p, c);
    VerticalBlur(p, c, w, bitdepth, blurred);
    for (int k = 1; k <= kRadius; ++k) {
      blurred[-k] = blurred[mirror_index(-k, w)];
      blurred[w - 1 + k] = blurred[mirror_index(w - 1 + k, w)];
    }
    sad += HorizontalSad(blurred, w);
  }
  return sad;
}

#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
// On x86 below 16 bits: two taps a multiply-add in int16 lanes. x86 only:
// ReorderWidenMulAccumulate is there the pairwise multiply-add of adjacent
// int16 lanes into their int32 lane (pmaddwd), and InterleaveLower /
// InterleaveUpper and the packs (ReorderDemote2To) work within each 128-bit
// block, so a pack of the lower and the upper interleave's sums is the columns
// in order; the sums below read all of these lane by lane.
namespace pairs {

using D16 = hn::Repartition<int16_t, D32>;
using DU16 = hn::RebindToUnsigned<D16>;
using V16 = hn::Vec<D16>;
using V32 = hn::Vec<D32>;

using exactvq::cpu::HWY_NAMESPACE::MulAddPairs;  // pair_products-inl.h

// Taps a and b in each int32 lane's low and high int16 halves.
HWY_INLINE V16 TapPair(int32_t a, int32_t b) {
  return hn::BitCast(D16(), hn::Set(D32(), int32_t(uint32_t(a) | uint32_t(b) << 16)));
}

// prev - cur of Lanes(D16) columns from x: below 2^15 in magnitude (samples
// below 2^15), exact in int16.
HWY_INLINE V16 Difference(const uint8_t* p, const uint8_t* c, int x) {
  const DU16 du;
  const hn::Rebind<uint8_t, DU16> d8;
  return hn::BitCast(D16(), hn::Sub(hn::PromoteTo(du, hn::LoadU(d8, p + x)),
                                    hn::PromoteTo(du, hn::LoadU(d8, c + x))));
}
HWY_INLINE V16 Difference(const uint16_t* p, const uint16_t* c, int x) {
  const DU16 du;
  return hn::BitCast(D16(), hn::Sub(hn::LoadU(du, p + x), hn::LoadU(du, c + x)));
}

// The vertical blur of prev - cur at columns [0, x), x the whole vectors of
// Lanes(D16) columns, as the halves of b = 256 hi + lo (lo in [0, 255], hi in
// [-256, 255]): |sum| <= 65536 (2^15 - 1), so the sum and its rounding stay
// in int32. next_p and next_c: the rows the next output row reads first,
// prefetched here (their first reads otherwise wait on memory). Returns x.
template <typename Sample, bool kVnni>
int VerticalHalves(const Sample* const p[kTaps], const Sample* const c[kTaps], int w, int bitdepth,
                   int16_t* HWY_RESTRICT hi, int16_t* HWY_RESTRICT lo, const Sample* next_p,
                   const Sample* next_c) {
  const D16 d16;
  const D32 d;
  const int lanes16 = int(hn::Lanes(d16));
  // The fifth tap pairs with 0 (its row then with itself).
  const V16 t01 = TapPair(kTap[0], kTap[1]), t23 = TapPair(kTap[2], kTap[3]),
            t4 = TapPair(kTap[4], 0);
  const V32 round = hn::Set(d, int32_t{1} << (bitdepth - 1));
  const V32 low = hn::Set(d, 255);
  int x = 0;
  for (; x + lanes16 <= w; x += lanes16) {
    __builtin_prefetch(next_p + x);
    __builtin_prefetch(next_c + x);
    const V16 d0 = Difference(p[0], c[0], x), d1 = Difference(p[1], c[1], x);
    const V16 d2 = Difference(p[2], c[2], x), d3 = Difference(p[3], c[3], x);
    const V16 d4 = Difference(p[4], c[4], x);
    V32 l = MulAddPairs<kVnni>(hn::InterleaveLower(d16, d0, d1), t01, hn::Zero(d));
    V32 u = MulAddPairs<kVnni>(hn::InterleaveUpper(d16, d0, d1), t01, hn::Zero(d));
    l = MulAddPairs<kVnni>(hn::InterleaveLower(d16, d2, d3), t23, l);
    u = MulAddPairs<kVnni>(hn::InterleaveUpper(d16, d2, d3), t23, u);
    l = MulAddPairs<kVnni>(hn::InterleaveLower(d16, d4, d4), t4, l);
    u = MulAddPairs<kVnni>(hn::InterleaveUpper(d16, d4, d4), t4, u);
    l = hn::ShiftRightSame(hn::Add(l, round), bitdepth);
    u = hn::ShiftRightSame(hn::Add(u, round), bitdepth);
    hn::StoreU(hn::ReorderDemote2To(d16, hn::ShiftRight<8>(l), hn::ShiftRight<8>(u)), d16, hi + x);
    hn::StoreU(hn::ReorderDemote2To(d16, hn::And(l, low), hn::And(u, low)), d16, lo + x);
  }
  return x;
}

// (256 H + L + 2^15) >> 16 as (H + ((L + 2^15) >> 8)) >> 8 (nested floor
// divisions; L >= 0), its absolute value.
HWY_INLINE V32 AbsBlurred(V32 h, V32 l) {
  const D32 d;
  return hn::Abs(hn::ShiftRight<8>(hn::Add(h, hn::ShiftRight<8>(hn::Add(l, hn::Set(d, 1 << 15))))));
}

// Sum over pixels [0, x) of a row, x the whole vectors of Lanes(D16) pixels,
// of |(horizontal blur + 2^15) >> 16|, the blur's halves hi and lo at columns
// [-kRadius, w + kRadius) from index 0: H and L below 2^24 in magnitude.
// Lane j: the pixels x + 2j (even) and x + 2j + 1 (odd), from the same loads,
// the odd pixels' pairs one tap earlier. Returns x; the lanes' sums (modulo
// 2^32) are added to acc.
template <bool kVnni>
int HorizontalSadHalves(const int16_t* hi, const int16_t* lo, int w, V32& acc) {
  const D16 d16;
  const int lanes16 = int(hn::Lanes(d16));
  const V16 even[3] = {TapPair(kTap[0], kTap[1]), TapPair(kTap[2], kTap[3]), TapPair(kTap[4], 0)};
  const V16 odd[3] = {TapPair(0, kTap[0]), TapPair(kTap[1], kTap[2]), TapPair(kTap[3], kTap[4])};
  int x = 0;
  for (; x + lanes16 <= w; x += lanes16) {
    V32 h_even = hn::Zero(D32()), h_odd = hn::Zero(D32());
    V32 l_even = hn::Zero(D32()), l_odd = hn::Zero(D32());
    for (int k = 0; k < 3; ++k) {
      const V16 h = hn::LoadU(d16, hi + x + 2 * k), l = hn::LoadU(d16, lo + x + 2 * k);
      h_even = MulAddPairs<kVnni>(h, even[k], h_even);
      h_odd = MulAddPairs<kVnni>(h, odd[k], h_odd);
      l_even = MulAddPairs<kVnni>(l, even[k], l_even);
      l_odd = MulAddPairs<kVnni>(l, odd[k], l_odd);
    }
    acc = hn::Add(acc, hn::Add(AbsBlurred(h_even, l_even), AbsBlurred(h_odd, l_odd)));
  }
  return x;
}

template <typename Sample, bool kVnni>
uint64_t SadRowsPaired(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  const int w = cur.width;
  const D32 d;
  // Columns [-kRadius, w + kRadius) of each half.
  std::vector<int16_t> hi(size_t(w) + 2 * kRadius), lo(hi.size());
  const int32_t round = int32_t{1} << (bitdepth - 1);
  // The blurred value of column x from its halves.
  const auto blurred = [&](int x) {
    return int32_t{hi[size_t(x + kRadius)]} * 256 + lo[size_t(x + kRadius)];
  };
  uint64_t sad = 0;
  for (int y = y0; y < y1; ++y) {
    const Sample* p[kTaps];
    const Sample* c[kTaps];
    tap_rows(prev, cur, y, p, c);
    const int next = mirror_index(y + 1 + kRadius, cur.height);
    int x =
        VerticalHalves<Sample, kVnni>(p, c, w, bitdepth, hi.data() + kRadius, lo.data() + kRadius,
                                      prev.row<Sample>(next), cur.row<Sample>(next));
    for (; x < w; ++x) {
      int32_t sum = 0;
      for (int k = 0; k < kTaps; ++k) sum += kTap[k] * (int32_t(p[k][x]) - int32_t(c[k][x]));
      const int32_t b = (sum + round) >> bitdepth;
      hi[size_t(x + kRadius)] = int16_t(b >> 8);
      lo[size_t(x + kRadius)] = int16_t(b & 255);
    }
    for (int k = 1; k <= kRadius; ++k)
      for (const int edge : {-k, w - 1 + k}) {
        const int from = mirror_index(edge, w);
        hi[size_t(edge + kRadius)] = hi[size_t(from + kRadius)];
        lo[size_t(edge + kRadius)] = lo[size_t(from + kRadius)];
      }
    auto acc = hn::Zero(d);
    x = HorizontalSadHalves<kVnni>(hi.data(), lo.data(), w, acc);
    // Lane by lane modulo 2^32, as the reference's uint32 row sum.
    const hn::RebindToUnsigned<D32> du;
    uint32_t each[HWY_MAX_BYTES / sizeof(uint32_t)];
    hn::StoreU(hn::BitCast(du, acc), du, each);
    uint32_t row_sad = 0;
    for (size_t i = 0; i < hn::Lanes(du); ++i) row_sad += each[i];
    for (; x < w; ++x) {
      int64_t sum = 0;
      for (int k = 0; k < kTaps; ++k) sum += int64_t{kTap[k]} * blurred(x - kRadius + k);
      row_sad += uint32_t(std::abs(int32_t((sum + (1 << 15)) >> 16)));
    }
    sad += row_sad;
  }
  return sad;
}

}  // namespace pairs

// The paired kernels below 16 bits (differences in int16) on rows of a vector
// or more, else SadRows.
template <typename Sample>
uint64_t SadRowsX86(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  if (bitdepth > 15 || cur.width < int(hn::Lanes(pairs::D16())))
    return SadRows<Sample>(prev, cur, bitdepth, y0, y1);
  return exactvq::cpu::HWY_NAMESPACE::WithVnniChoice([&]<bool kVnni>() {
    return pairs::SadRowsPaired<Sample, kVnni>(prev, cur, bitdepth, y0, y1);
  });
}
#endif

#if HWY_TARGET == HWY_SCALAR
// One lane: the scalar reference is the faster kernel.
uint64_t Sad8(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  return sad_reference(prev, cur, bitdepth, y0, y1);
}
uint64_t Sad16(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  return sad_reference(prev, cur, bitdepth, y0, y1);
}
#elif HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128
uint64_t Sad8(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  return SadRowsX86<uint8_t>(prev, cur, bitdepth, y0, y1);
}
uint64_t Sad16(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  return SadRowsX86<uint16_t>(prev, cur, bitdepth, y0, y1);
}
#else
uint64_t Sad8(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  return SadRows<uint8_t>(prev, cur, bitdepth, y0, y1);
}
uint64_t Sad16(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  return SadRows<uint16_t>(prev, cur, bitdepth, y0, y1);
}
#endif

}  // namespace exactvq::motion::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::motion {

HWY_EXPORT(Sad8);
HWY_EXPORT(Sad16);

uint64_t sad(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  if (y1 <= y0) return 0;
  return cur.bytes_per_sample == 1 ? HWY_DYNAMIC_DISPATCH(Sad8)(prev, cur, bitdepth, y0, y1)
                                   : HWY_DYNAMIC_DISPATCH(Sad16)(prev, cur, bitdepth, y0, y1);
}

}  // namespace exactvq::motion
#endif  // HWY_ONCE
