// Horizontal moments (spec/ssim.md step 1) as a Highway kernel: per-sample
// products, then the nine-tap filter along the row; columns whose window a row
// end truncates take the scalar path.
#include <algorithm>

#include "cpu/ssim_kernels.h"
#include "ssim/taps.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/horizontal_moments.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/tap_filter-inl.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using ssim::kRadius;
using ssim::kTap;
using ssim::kTaps;

// s, d, s*s, s*d, d*d for samples [0, count) (each product < 2^32); with
// kPack (8-bit samples), s + 2^16 * d in s instead of s and d (see PackSamples).
template <bool kPack, typename Sample>
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
    hn::StoreU(hn::Mul(vs, vs), du32, ss + i);
    hn::StoreU(hn::Mul(vs, vd), du32, sd + i);
    hn::StoreU(hn::Mul(vd, vd), du32, dd + i);
  }
  for (; i < count; ++i) {
    const uint32_t a = ref[i], b = dist[i];
    if constexpr (kPack) {
      s[i] = a | (b << 16);
    } else {
      s[i] = a;
      d[i] = b;
    }
    ss[i] = a * a;
    sd[i] = a * b;
    dd[i] = b * b;
  }
}

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
  const size_t count = size_t(inner_end - inner_begin);
  const uint32_t* c = in + (inner_begin - a);  // the sample under the centre tap
  Out* o = out + (inner_begin - x0);
  auto vector_at = [&](size_t i) {
    auto load = [&](int k) {
      const uint32_t* p = c + i + size_t(k) - kRadius;
      if constexpr (sizeof(Out) == 4) return hn::LoadU(din, p);
      else return hn::PromoteTo(dout, hn::LoadU(din, p));
    };
    hn::StoreU(FilterNine(load(0), load(1), load(2), load(3), load(4), load(5), load(6), load(7),
                          load(8)),
               dout, o + i);
  };
  if (count >= lanes) {
    size_t i = 0;
    for (; i + lanes <= count; i += lanes) vector_at(i);
    if (i < count) vector_at(count - lanes);  // the tail, overlapping (same values rewritten)
  } else {
    for (int x = inner_begin; x < inner_end; ++x) edge(x);
  }
  for (int x = inner_end; x < x1; ++x) edge(x);
}

// 8-bit samples: s + 2^16 * d in one 32-bit lane. Filtered, the low half is
// sum g*s < 255 * 256 < 2^16 (no carry reaches the high half) and the high half
// sum g*d: one filter gives both first-order moments.
// m = low halves, n = high halves of the packed moments in m.
void UnpackMoments(uint32_t* HWY_RESTRICT m, uint32_t* HWY_RESTRICT n, size_t count) {
  const hn::ScalableTag<uint32_t> du32;
  const size_t lanes = hn::Lanes(du32);
  const auto low = hn::Set(du32, 0xffffu);
  size_t i = 0;
  for (; i + lanes <= count; i += lanes) {
    const auto v = hn::LoadU(du32, m + i);
    hn::StoreU(hn::ShiftRight<16>(v), du32, n + i);
    hn::StoreU(hn::And(v, low), du32, m + i);
  }
  for (; i < count; ++i) {
    n[i] = m[i] >> 16;
    m[i] &= 0xffffu;
  }
}

template <typename Sample, typename Wide>
void Horizontal(const Sample* ref, const Sample* dist, int width, int x0, int x1,
                uint32_t* scratch, MomentRow<Wide> out) {
  if (x1 <= x0) return;
  const int a = std::max(0, x0 - kRadius), b = std::min(width, x1 + kRadius);
  const size_t count = size_t(b - a), stride = size_t(x1 - x0 + 2 * kRadius);
  uint32_t *s = scratch, *d = s + stride, *ss = d + stride, *sd = ss + stride, *dd = sd + stride;
  constexpr bool kPack = sizeof(Sample) == 1;
  SampleProducts<kPack>(ref + a, dist + a, count, s, d, ss, sd, dd);
  if constexpr (kPack) {
    FilterRow(s, a, width, x0, x1, out.m);
    UnpackMoments(out.m, out.n, size_t(x1 - x0));
  } else {
    FilterRow(s, a, width, x0, x1, out.m);
    FilterRow(d, a, width, x0, x1, out.n);
  }
  FilterRow(ss, a, width, x0, x1, out.xx);
  FilterRow(sd, a, width, x0, x1, out.xy);
  FilterRow(dd, a, width, x0, x1, out.yy);
}

void Horizontal8(const uint8_t* ref, const uint8_t* dist, int width, int x0, int x1,
                 uint32_t* scratch, MomentRow<uint32_t> out) {
  Horizontal(ref, dist, width, x0, x1, scratch, out);
}
void Horizontal16To32(const uint16_t* ref, const uint16_t* dist, int width, int x0, int x1,
                      uint32_t* scratch, MomentRow<uint32_t> out) {
  Horizontal(ref, dist, width, x0, x1, scratch, out);
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
