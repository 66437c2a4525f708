// Cambi's contrast values (contrast_values.h) as a Highway kernel. Counts are
// uint16 read by 32-bit gathers at their byte offsets (the upper half masked
// off; the scratch holds one count more, so the last one's read stays inside),
// products of counts and weights stay below 2^31 (9 * 4225 * 4225), and each
// lane converts, multiplies and compares as the reference's one sample does.
#include <algorithm>
#include <vector>

#include "metrics/cambi/contrast_values.h"
#include "metrics/cambi/reciprocal_table.h"
#include "metrics/cambi/window_counts.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/cambi/cpu/contrast_values_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::cambi::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D32 = hn::ScalableTag<int32_t>;
using DF = hn::Rebind<float, D32>;

// The band's parameters and the row's counts, for one row's samples.
struct RowInputs {
  const uint16_t* counts;
  int w, nd, base, band, vlt;
  const int* tvi;
};

// One sample's value, as the reference forms it.
float SampleValue(const RowInputs& in, uint16_t code, int x) {
  const int value = code + in.nd;
  const int own = code - in.base;
  if (unsigned(own) >= unsigned(in.band)) return 0.0f;
  const auto count = [&](int c) { return int(in.counts[size_t(c) * size_t(in.w) + size_t(x)]); };
  const int p0 = count(own);
  float c = 0.0f;
  for (int d = 0; d < in.nd; ++d) {
    if (value > in.tvi[d] || value + d + 1 <= in.vlt) continue;
    const int p1 = count(own + d + 1);
    const int p2 = own - d - 1 >= 0 ? count(own - d - 1) : 0;
    const int p = p1 > p2 ? p1 : p2;
    const float v = float(kContrastWeight[d] * p0 * p) * kReciprocal[p + p0];
    if (v > c) c = v;
  }
  return c;
}

// counts[index] of each lane (index 0 where a lane reads nothing).
HWY_INLINE hn::Vec<D32> GatherCounts(const uint16_t* counts, hn::Vec<D32> index) {
  const D32 d;
  const auto words =
      hn::GatherOffset(d, reinterpret_cast<const int32_t*>(counts), hn::Add(index, index));
  return hn::And(words, hn::Set(d, 0xFFFF));
}

void ContrastRow(const RowInputs& in, const uint16_t* HWY_RESTRICT codes,
                 const uint8_t* HWY_RESTRICT mask, float* HWY_RESTRICT out) {
  const D32 d;
  const DF df;
  const hn::Rebind<uint16_t, D32> d16;
  const hn::Rebind<uint8_t, D32> d8;
  const int lanes = int(hn::Lanes(d));
  const int w = in.w;
  const auto base = hn::Set(d, in.base), band = hn::Set(d, in.band), zero = hn::Zero(d);
  int x = 0;
  for (; x + lanes <= w; x += lanes) {
    const auto masked = hn::Ne(hn::PromoteTo(d, hn::LoadU(d8, mask + x)), zero);
    const auto code = hn::PromoteTo(d, hn::LoadU(d16, codes + x));
    const auto own = hn::Sub(code, base);
    const auto valid = hn::And(masked, hn::And(hn::Gt(own, hn::Set(d, -1)), hn::Lt(own, band)));
    if (hn::AllFalse(d, valid)) {
      hn::StoreU(hn::Zero(df), df, out + x);
      continue;
    }
    const auto at = hn::Add(hn::Mul(own, hn::Set(d, w)), hn::Iota(d, x));
    const auto p0 = GatherCounts(in.counts, hn::IfThenElseZero(valid, at));
    const auto value = hn::Add(code, hn::Set(d, in.nd));
    auto c = hn::Zero(df);
    for (int k = 0; k < in.nd; ++k) {
      // Lanes whose contrast k + 1 is visible: value <= tvi[k], value + k + 1 > vlt.
      const auto visible =
          hn::And(valid, hn::And(hn::Lt(value, hn::Set(d, in.tvi[k] + 1)),
                                 hn::Gt(hn::Add(value, hn::Set(d, k + 1)), hn::Set(d, in.vlt))));
      if (hn::AllFalse(d, visible)) continue;
      const auto step = hn::Set(d, (k + 1) * w);
      const auto p1 = GatherCounts(in.counts, hn::IfThenElseZero(visible, hn::Add(at, step)));
      const auto below = hn::And(visible, hn::Gt(own, hn::Set(d, k)));
      const auto p2 = hn::IfThenElseZero(
          below, GatherCounts(in.counts, hn::IfThenElseZero(below, hn::Sub(at, step))));
      const auto p = hn::Max(p1, p2);
      const auto product = hn::Mul(hn::Mul(hn::Set(d, kContrastWeight[k]), p0), p);
      const auto reciprocal =
          hn::GatherIndex(df, kReciprocal, hn::IfThenElseZero(visible, hn::Add(p, p0)));
      const auto v = hn::Mul(hn::ConvertTo(df, product), reciprocal);
      const auto larger = hn::And(hn::RebindMask(df, visible), hn::Gt(v, c));
      c = hn::IfThenElse(larger, v, c);
    }
    hn::StoreU(c, df, out + x);
  }
  for (; x < w; ++x) out[x] = mask[x] ? SampleValue(in, codes[x], x) : 0.0f;
}

void ContrastValues(const uint16_t* image, const uint8_t* mask, int w, int h, int window,
                    const CambiSetup& s, float* values, ContrastScratch& scratch) {
  const int pad = window >> 1;
  const int nd = s.num_diffs;
  const int base = std::max(0, s.vlt_luma - 3 * nd + 1);
  const int band = s.tvi_for_diff[size_t(nd - 1)] + 1 - base;
  if (band <= 0) {
    std::fill(values, values + size_t(w) * size_t(h), 0.0f);
    return;
  }
  std::vector<uint16_t>& counts = scratch.counts;
  counts.assign(size_t(band) * size_t(w) + 1, 0);
  const auto row = [&](int y) {
    return y >= 0 && y < h ? CountsRow{image + size_t(y) * size_t(w), mask + size_t(y) * size_t(w)}
                           : CountsRow{};
  };
  for (int y = 0; y < pad; ++y) slide_counts(counts.data(), {}, row(y), w, pad, base, band);
  const RowInputs in{counts.data(), w, nd, base, band, s.vlt_luma, s.tvi_for_diff.data()};
  for (int y = 0; y < h; ++y) {
    slide_counts(counts.data(), row(y - pad - 1), row(y + pad), w, pad, base, band);
    const size_t at = size_t(y) * size_t(w);
    ContrastRow(in, image + at, mask + at, values + at);
  }
}

}  // namespace exactvq::cambi::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::cambi {

HWY_EXPORT(ContrastValues);

void contrast_values_simd(const uint16_t* image, const uint8_t* mask, int w, int h, int window,
                          const CambiSetup& s, float* values, ContrastScratch& scratch) {
  HWY_DYNAMIC_DISPATCH(ContrastValues)(image, mask, w, h, window, s, values, scratch);
}

}  // namespace exactvq::cambi
#endif  // HWY_ONCE
