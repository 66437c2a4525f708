// Horizontal moments (spec/ssim.md step 1) as a Highway kernel: per-sample
// products, then the nine-tap filter along the row; columns whose window a row
// end truncates take the scalar path.
#include <algorithm>

#include "metrics/ssim/cpu/ssim_kernels.h"
#include "metrics/ssim/taps.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/ssim/cpu/horizontal_moments.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "metrics/ssim/cpu/tap_filter-inl.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using ssim::kRadius;
using ssim::kTap;
using ssim::kTaps;

// a * b of 32-bit lanes whose products fit 32 bits. With kSmall (each factor
// below 2^15, samples of at most 12 bits) on x86, one pairwise multiply-add
// (pmaddwd, one instruction where the 32-bit multiply is two): a lane's 16-bit
// halves are (a, 0) and (b, 0), so the pair's sum is a * b + 0 * 0.
template <bool kSmall, class V>
HWY_INLINE V ProductLanes(V a, V b) {
#if HWY_ARCH_X86 && HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128
  if constexpr (kSmall) {
    const hn::DFromV<V> du32;
    const hn::RebindToSigned<decltype(du32)> di32;
    const hn::Repartition<int16_t, decltype(di32)> di16;
    auto unused = hn::Zero(di32);
    const auto sum = hn::ReorderWidenMulAccumulate(di32, hn::BitCast(di16, a), hn::BitCast(di16, b),
                                                   hn::Zero(di32), unused);
    return hn::BitCast(du32, hn::RearrangeToOddPlusEven(sum, unused));
  }
#endif
  return hn::Mul(a, b);
}

// s, d, s*s, s*d, d*d for samples [0, count) (each product < 2^32); with
// kPack (8-bit samples), s + 2^16 * d in s instead of s and d (see
// FilterPackedRow); kSmall: samples below 2^15 (see ProductLanes); with
// kSumSquares, s*s + d*d in ss and nothing in dd (the sum must fit 32 bits).
template <bool kPack, bool kSmall, bool kSumSquares = false, typename Sample>
void SampleProducts(const Sample* HWY_RESTRICT ref, const Sample* HWY_RESTRICT dist, size_t count,
                    uint32_t* HWY_RESTRICT s, uint32_t* HWY_RESTRICT d, uint32_t* HWY_RESTRICT ss,
                    uint32_t* HWY_RESTRICT sd, uint32_t* HWY_RESTRICT dd) {
  const hn::ScalableTag<uint32_t> du32;
  const hn::Rebind<Sample, decltype(du32)> dsample;
  const size_t lanes = hn::Lanes(du32);
  size_t i = 0;
  for (; i + lanes <= count; i += lanes) {
    const auto vs = hn::PromoteTo(du32, hn::LoadU(dsample, ref + i));
    const auto vd = hn::PromoteTo(du32, hn::LoadU(dsample, dist + i));
    if constexpr (kPack) {
      hn::StoreU(hn::Or(vs, hn::ShiftLeft<16>(vd)), du32, s + i);
    } else {
      hn::StoreU(vs, du32, s + i);
      hn::StoreU(vd, du32, d + i);
    }
    if constexpr (kSumSquares) {
      hn::StoreU(hn::Add(ProductLanes<kSmall>(vs, vs), ProductLanes<kSmall>(vd, vd)), du32, ss + i);
    } else {
      hn::StoreU(ProductLanes<kSmall>(vs, vs), du32, ss + i);
      hn::StoreU(ProductLanes<kSmall>(vd, vd), du32, dd + i);
    }
    hn::StoreU(ProductLanes<kSmall>(vs, vd), du32, sd + i);
  }
  for (; i < count; ++i) {
    const uint32_t a = ref[i], b = dist[i];
    if constexpr (kPack) {
      s[i] = a | (b << 16);
    } else {
      s[i] = a;
      d[i] = b;
    }
    sd[i] = a * b;
    if constexpr (kSumSquares) {
      ss[i] = a * a + b * b;
    } else {
      ss[i] = a * a;
      dd[i] = b * b;
    }
  }
}

// The inner columns [inner_begin, inner_end) of a filtered row, whose windows the
// row does not truncate, by vector_at(i) (i counted from inner_begin) in steps of
// `lanes`, the tail overlapping (the same values rewritten), or by edge(x) where
// the run is narrower than a vector; then edge(x) for the columns [inner_end, x1).
template <typename Edge, typename Vector>
HWY_INLINE void InnerColumns(int inner_begin, int inner_end, int x1, size_t lanes, Edge& edge,
                             Vector& vector_at) {
  const size_t count = size_t(inner_end - inner_begin);
  if (count >= lanes) {
    size_t i = 0;
    for (; i + lanes <= count; i += lanes) vector_at(i);
    if (i < count) vector_at(count - lanes);
  } else {
    for (int x = inner_begin; x < inner_end; ++x) edge(x);
  }
  for (int x = inner_end; x < x1; ++x) edge(x);
}

#if HWY_TARGET != HWY_SCALAR
// 8-bit samples, for FilterProducts8: s + 2^16 d in s (as SampleProducts with
// kPack), and for each product p (s*s, s*d, d*d; p < 2^16) the pairs
// pp[i] = q_i + 2^16 q_i+1 with q_i = (p_i - 2^15) mod 2^16 = p_i xor 2^15, the
// product less 2^15 as a signed 16-bit lane (the last pair's high half: q = -2^15,
// from p = 0; only tap 9, which is 0, meets it). The samples go in as pairs too,
// (s_i, s_i+1) in the two 16-bit halves of a 32-bit lane, so that one 16-bit
// multiply forms both products of a pair: each is below 2^16, so the low 16 bits
// the multiply keeps are the whole product.
void SamplePairs8(const uint8_t* HWY_RESTRICT ref, const uint8_t* HWY_RESTRICT dist, size_t count,
                  uint32_t* HWY_RESTRICT s, uint32_t* HWY_RESTRICT xx, uint32_t* HWY_RESTRICT xy,
                  uint32_t* HWY_RESTRICT yy) {
  const hn::ScalableTag<uint32_t> du32;
  const hn::Repartition<uint16_t, decltype(du32)> du16;
  const hn::Rebind<uint8_t, decltype(du32)> du8;
  const size_t lanes = hn::Lanes(du32);
  const auto bias = hn::Set(du16, uint16_t{0x8000});
  auto biased = [&](auto a, auto b) { return hn::BitCast(du32, hn::Xor(hn::Mul(a, b), bias)); };
  // Columns [i, i + lanes); reads up to ref[i + lanes], so i + lanes < count.
  auto vector_at = [&](size_t i) {
    const auto vs = hn::PromoteTo(du32, hn::LoadU(du8, ref + i));
    const auto vd = hn::PromoteTo(du32, hn::LoadU(du8, dist + i));
    const auto vs1 = hn::PromoteTo(du32, hn::LoadU(du8, ref + i + 1));
    const auto vd1 = hn::PromoteTo(du32, hn::LoadU(du8, dist + i + 1));
    const auto ps = hn::BitCast(du16, hn::Or(vs, hn::ShiftLeft<16>(vs1)));  // (s_i, s_i+1)
    const auto pd = hn::BitCast(du16, hn::Or(vd, hn::ShiftLeft<16>(vd1)));  // (d_i, d_i+1)
    hn::StoreU(hn::Or(vs, hn::ShiftLeft<16>(vd)), du32, s + i);
    hn::StoreU(biased(ps, ps), du32, xx + i);
    hn::StoreU(biased(ps, pd), du32, xy + i);
    hn::StoreU(biased(pd, pd), du32, yy + i);
  };
  size_t i = 0;
  for (; i + lanes < count; i += lanes) vector_at(i);
  // The rest but the last column by one more vector, overlapping (the same
  // values rewritten); the last column, whose pair has no right neighbour, alone.
  if (i + 1 < count && count > lanes) {
    vector_at(count - 1 - lanes);
    i = count - 1;
  }
  for (; i < count; ++i) {
    const uint32_t a = ref[i], b = dist[i];
    const uint32_t a1 = i + 1 < count ? ref[i + 1] : 0, b1 = i + 1 < count ? dist[i + 1] : 0;
    s[i] = a | (b << 16);
    xx[i] = (a * a | (a1 * a1) << 16) ^ 0x80008000u;
    xy[i] = (a * b | (a1 * b1) << 16) ^ 0x80008000u;
    yy[i] = (b * b | (b1 * b1) << 16) ^ 0x80008000u;
  }
}

// The second-order horizontal moments of 8-bit samples for x in [x0, x1), from
// the pairs of SamplePairs8 (of columns [a, ...)), two taps per pairwise
// widening multiply-add (x86: vpmaddwd) in 16-bit lanes. For taps k, k + 1
// (k = 0, 2, 4, 6, 8; g[9] = 0) and i = x - 4 + k, pp[i]'s signed 16-bit lanes
// (q_i, q_i+1) = (p_i - 2^15, p_i+1 - 2^15), times (g_k, g_k+1), summed in a
// 32-bit lane: g_k q_i + g_k+1 q_i+1. Over the five pairs, an interior column
// (all nine taps in the row) gets sum g_k (p_k - 2^15) = H - 2^15 * 256, so
// H = that + 2^23. Bounds (signed lanes): |q| <= 2^15, g <= 68, so no
// multiply-add overflows (only -2^15 * -2^15 twice could); every partial sum is
// at most 256 * 2^15 = 2^23 in magnitude, and H <= 256 * 255^2 < 2^24: no
// 32-bit lane wraps, each holds the exact sum, the 32-bit filter's value.
// Columns whose window the row end truncates take the scalar path.
void FilterProducts8(const uint32_t* HWY_RESTRICT pxx, const uint32_t* HWY_RESTRICT pxy,
                     const uint32_t* HWY_RESTRICT pyy, int a, int width, int x0, int x1,
                     uint32_t* HWY_RESTRICT xx, uint32_t* HWY_RESTRICT xy,
                     uint32_t* HWY_RESTRICT yy) {
  const int inner_begin = std::clamp(kRadius, x0, x1);
  const int inner_end = std::clamp(width - kRadius, inner_begin, x1);
  auto edge = [&](int x) {
    uint32_t sxx = 0, sxy = 0, syy = 0;
    for (int k = std::max(0, kRadius - x); k < std::min(kTaps, width + kRadius - x); ++k) {
      const size_t i = size_t(x - kRadius + k - a);
      const uint32_t g = kTap[size_t(k)];
      sxx += g * ((pxx[i] & 0xffffu) ^ 0x8000u);
      sxy += g * ((pxy[i] & 0xffffu) ^ 0x8000u);
      syy += g * ((pyy[i] & 0xffffu) ^ 0x8000u);
    }
    xx[x - x0] = sxx;
    xy[x - x0] = sxy;
    yy[x - x0] = syy;
  };
  for (int x = x0; x < inner_begin; ++x) edge(x);

  const hn::ScalableTag<uint32_t> du32;
  const hn::ScalableTag<int32_t> di32;
  const hn::Repartition<int16_t, decltype(di32)> di16;
  const size_t lanes = hn::Lanes(du32);
  const size_t first = size_t(inner_begin - kRadius - a);  // pair index of tap 0
  const size_t out0 = size_t(inner_begin - x0);
  auto tap_pair = [&](int k) {
    const uint32_t lo = kTap[size_t(k)], hi = k + 1 < kTaps ? kTap[size_t(k + 1)] : 0;
    return hn::BitCast(di16, hn::Set(du32, lo | (hi << 16)));
  };
  const auto g01 = tap_pair(0), g23 = tap_pair(2), g45 = tap_pair(4), g67 = tap_pair(6),
             g8 = tap_pair(8);
  const auto unbias = hn::Set(di32, int32_t{1} << 23);
  auto filter = [&](const uint32_t* HWY_RESTRICT pp, size_t i, uint32_t* HWY_RESTRICT out) {
    auto s0 = hn::Zero(di32), s1 = s0;
    auto pair = [&](size_t k, decltype(g01) g) {
      s0 = hn::ReorderWidenMulAccumulate(di32, hn::BitCast(di16, hn::LoadU(du32, pp + i + k)), g,
                                         s0, s1);
    };
    pair(0, g01);
    pair(2, g23);
    pair(4, g45);
    pair(6, g67);
    pair(8, g8);
    const auto sum = hn::Add(hn::RearrangeToOddPlusEven(s0, s1), unbias);
    hn::StoreU(hn::BitCast(du32, sum), du32, out + i);
  };
  auto vector_at = [&](size_t i) {
    filter(pxx + first, i, xx + out0);
    filter(pxy + first, i, xy + out0);
    filter(pyy + first, i, yy + out0);
  };
  InnerColumns(inner_begin, inner_end, x1, lanes, edge, vector_at);
}
#endif  // HWY_TARGET != HWY_SCALAR

// out[x - x0] for x in [x0, x1) from in[x - a], the samples of columns [a, ...)
// of a row of `width`.
template <typename Out>
void FilterRow(const uint32_t* HWY_RESTRICT in, int a, int width, int x0, int x1,
               Out* HWY_RESTRICT out) {
  const int inner_begin = std::clamp(kRadius, x0, x1);
  const int inner_end = std::clamp(width - kRadius, inner_begin, x1);
  auto edge = [&](int x) {
    Out sum = 0;
    for (int k = std::max(0, kRadius - x); k < std::min(kTaps, width + kRadius - x); ++k)
      sum += Out{kTap[size_t(k)]} * Out{in[x - kRadius + k - a]};
    out[x - x0] = sum;
  };
  for (int x = x0; x < inner_begin; ++x) edge(x);

  const hn::ScalableTag<Out> dout;
  const hn::Rebind<uint32_t, decltype(dout)> din;
  const size_t lanes = hn::Lanes(dout);
  const uint32_t* c = in + (inner_begin - a);  // the sample under the centre tap
  Out* o = out + (inner_begin - x0);
  auto vector_at = [&](size_t i) {
    auto load = [&](int k) {
      const uint32_t* p = c + i + size_t(k) - kRadius;
      if constexpr (sizeof(Out) == 4)
        return hn::LoadU(din, p);
      else
        return hn::PromoteTo(dout, hn::LoadU(din, p));
    };
    hn::StoreU(
        FilterNine(load(0), load(1), load(2), load(3), load(4), load(5), load(6), load(7), load(8)),
        dout, o + i);
  };
  InnerColumns(inner_begin, inner_end, x1, lanes, edge, vector_at);
}

// FilterRow of 8-bit samples packed as s + 2^16 d in one 32-bit lane. Filtered,
// the low half is sum g*s < 255 * 256 < 2^16 (no carry reaches the high half)
// and the high half sum g*d: one filter gives both first-order moments, split
// as they are stored: m[x - x0] the low half, n[x - x0] the high half.
void FilterPackedRow(const uint32_t* HWY_RESTRICT in, int a, int width, int x0, int x1,
                     uint32_t* HWY_RESTRICT m, uint32_t* HWY_RESTRICT n) {
  const int inner_begin = std::clamp(kRadius, x0, x1);
  const int inner_end = std::clamp(width - kRadius, inner_begin, x1);
  auto edge = [&](int x) {
    uint32_t sum = 0;
    for (int k = std::max(0, kRadius - x); k < std::min(kTaps, width + kRadius - x); ++k)
      sum += kTap[size_t(k)] * in[x - kRadius + k - a];
    m[x - x0] = sum & 0xffffu;
    n[x - x0] = sum >> 16;
  };
  for (int x = x0; x < inner_begin; ++x) edge(x);

  const hn::ScalableTag<uint32_t> du32;
  const size_t lanes = hn::Lanes(du32);
  const auto low = hn::Set(du32, 0xffffu);
  const uint32_t* c = in + (inner_begin - a);  // the sample under the centre tap
  uint32_t* om = m + (inner_begin - x0);
  uint32_t* on = n + (inner_begin - x0);
  auto vector_at = [&](size_t i) {
    auto load = [&](int k) { return hn::LoadU(du32, c + i + size_t(k) - kRadius); };
    const auto sum =
        FilterNine(load(0), load(1), load(2), load(3), load(4), load(5), load(6), load(7), load(8));
    hn::StoreU(hn::And(sum, low), du32, om + i);
    hn::StoreU(hn::ShiftRight<16>(sum), du32, on + i);
  };
  InnerColumns(inner_begin, inner_end, x1, lanes, edge, vector_at);
}

// kSumSquares: xx + yy into out.xx, out.yy untouched (16-bit samples whose
// sum fits 32 bits: at most 11 bits).
template <typename Sample, typename Wide, bool kSumSquares = false>
void Horizontal(const Sample* ref, const Sample* dist, int width, int x0, int x1, uint32_t* scratch,
                MomentRow<Wide> out) {
  if (x1 <= x0) return;
  const int a = std::max(0, x0 - kRadius), b = std::min(width, x1 + kRadius);
  const size_t count = size_t(b - a), stride = horizontal_scratch_stride(x0, x1);
  uint32_t *s = scratch, *d = s + stride, *ss = d + stride, *sd = ss + stride, *dd = sd + stride;
  constexpr bool kPack = sizeof(Sample) == 1;
#if HWY_TARGET != HWY_SCALAR
  if constexpr (kPack) {  // ss, sd, dd hold the product pairs
    SamplePairs8(ref + a, dist + a, count, s, ss, sd, dd);
    FilterPackedRow(s, a, width, x0, x1, out.m, out.n);
    FilterProducts8(ss, sd, dd, a, width, x0, x1, out.xx, out.xy, out.yy);
    return;
  }
#endif
  // 32-bit horizontal moments mean at most 12 bits: samples below 2^15.
  constexpr bool kSmall = sizeof(Wide) == 4;
  SampleProducts<kPack, kSmall, kSumSquares>(ref + a, dist + a, count, s, d, ss, sd, dd);
  if constexpr (kPack) {
    FilterPackedRow(s, a, width, x0, x1, out.m, out.n);
  } else {
    FilterRow(s, a, width, x0, x1, out.m);
    FilterRow(d, a, width, x0, x1, out.n);
  }
  FilterRow(ss, a, width, x0, x1, out.xx);
  FilterRow(sd, a, width, x0, x1, out.xy);
  if constexpr (!kSumSquares) FilterRow(dd, a, width, x0, x1, out.yy);
}

void Horizontal8(const uint8_t* ref, const uint8_t* dist, int width, int x0, int x1,
                 uint32_t* scratch, MomentRow<uint32_t> out) {
  Horizontal(ref, dist, width, x0, x1, scratch, out);
}
void Horizontal16To32(const uint16_t* ref, const uint16_t* dist, int width, int x0, int x1,
                      uint32_t* scratch, MomentRow<uint32_t> out) {
  Horizontal(ref, dist, width, x0, x1, scratch, out);
}
void Horizontal16SumSquares(const uint16_t* ref, const uint16_t* dist, int width, int x0, int x1,
                            uint32_t* scratch, MomentRow<uint32_t> out) {
  Horizontal<uint16_t, uint32_t, true>(ref, dist, width, x0, x1, scratch, out);
}
void Horizontal16To64(const uint16_t* ref, const uint16_t* dist, int width, int x0, int x1,
                      uint32_t* scratch, MomentRow<uint64_t> out) {
  Horizontal(ref, dist, width, x0, x1, scratch, out);
}

}  // namespace exactvq::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::cpu {

HWY_EXPORT(Horizontal8);
HWY_EXPORT(Horizontal16To32);
HWY_EXPORT(Horizontal16To64);
HWY_EXPORT(Horizontal16SumSquares);

void horizontal_moments_summed_squares(const uint16_t* ref, const uint16_t* dist, int width, int x0,
                                       int x1, uint32_t* scratch, MomentRow<uint32_t> out) {
  HWY_DYNAMIC_DISPATCH(Horizontal16SumSquares)(ref, dist, width, x0, x1, scratch, out);
}

void horizontal_moments(const uint8_t* ref, const uint8_t* dist, int width, int x0, int x1,
                        uint32_t* scratch, MomentRow<uint32_t> out) {
  HWY_DYNAMIC_DISPATCH(Horizontal8)(ref, dist, width, x0, x1, scratch, out);
}
void horizontal_moments(const uint16_t* ref, const uint16_t* dist, int width, int x0, int x1,
                        uint32_t* scratch, MomentRow<uint32_t> out) {
  HWY_DYNAMIC_DISPATCH(Horizontal16To32)(ref, dist, width, x0, x1, scratch, out);
}
void horizontal_moments(const uint16_t* ref, const uint16_t* dist, int width, int x0, int x1,
                        uint32_t* scratch, MomentRow<uint64_t> out) {
  HWY_DYNAMIC_DISPATCH(Horizontal16To64)(ref, dist, width, x0, x1, scratch, out);
}

}  // namespace exactvq::cpu
#endif  // HWY_ONCE
