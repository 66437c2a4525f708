// Cambi's window counts (window_counts.h) as a Highway kernel, the twin of
// window_counts_reference.cpp; every target Highway offers is compiled in and
// the best one runs. Each sample's span is added in vectors of 16-bit lanes
// (modulo 2^16, as the reference's uint16 counts); a column whose leaving and entering samples have
// the same code in the band changes nothing and is skipped.
#include <algorithm>

#include "metrics/cambi/window_counts.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/cambi/cpu/window_counts_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::cambi::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D16 = hn::ScalableTag<uint16_t>;

// line[lo .. hi) += step (modulo 2^16). The span's last part, shorter than a
// vector: on AVX-512 one masked vector (its lanes past the span neither read
// nor written), elsewhere 8 lanes at a time, then one at a time.
HWY_INLINE void AddSpan(uint16_t* HWY_RESTRICT line, int lo, int hi, hn::Vec<D16> step,
                        uint16_t step_lane) {
  const D16 d;
  const int lanes = int(hn::Lanes(d));
  int k = lo;
  for (; k + lanes <= hi; k += lanes)
    hn::StoreU(hn::Add(hn::LoadU(d, line + k), step), d, line + k);
#if HWY_TARGET <= HWY_AVX3
  if (k < hi) {
    const auto part = hn::FirstN(d, size_t(hi - k));
    hn::BlendedStore(hn::Add(hn::MaskedLoad(part, d, line + k), step), part, d, line + k);
  }
#else
  const hn::CappedTag<uint16_t, 8> d8;
  const int lanes8 = int(hn::Lanes(d8));
  const auto step8 = hn::Set(d8, step_lane);
  for (; k + lanes8 <= hi; k += lanes8)
    hn::StoreU(hn::Add(hn::LoadU(d8, line + k), step8), d8, line + k);
  for (; k < hi; ++k) line[k] = uint16_t(line[k] + step_lane);
#endif
}

// The band row of a masked sample's code, or -1 where it counts nothing.
HWY_INLINE int BandRow(CountsRow row, int x, int base, int band) {
  if (!row.codes || !row.mask[x]) return -1;
  const int code = row.codes[x] - base;
  return code >= 0 && code < band ? code : -1;
}

// BandRow of a vector of columns from x, 0xFFFF for -1: code - base modulo
// 2^16 lies in the band exactly where it is at most band - 1 (band <= 1025).
HWY_INLINE hn::Vec<D16> BandRows(CountsRow row, int x, hn::Vec<D16> base, hn::Vec<D16> last) {
  const D16 d;
  const hn::Rebind<uint8_t, D16> d8;
  if (!row.codes) return hn::Set(d, uint16_t{0xFFFF});
  const auto code = hn::Sub(hn::LoadU(d, row.codes + x), base);
  const auto masked = hn::Not(hn::Eq(hn::PromoteTo(d, hn::LoadU(d8, row.mask + x)), hn::Zero(d)));
  const auto counted = hn::And(masked, hn::Eq(hn::Min(code, last), code));
  return hn::IfThenElse(counted, code, hn::Set(d, uint16_t{0xFFFF}));
}

void SlideCounts(uint16_t* counts, CountsRow leaving, CountsRow entering, int w, int pad, int base,
                 int band) {
  const D16 d;
  const int lanes = int(hn::Lanes(d));
  const auto up = hn::Set(d, uint16_t{1}), down = hn::Set(d, uint16_t{0xFFFF});
  const auto slide = [&](int x, int out, int in) {
    if (out == in) return;  // both absent, or the same code: the counts do not change
    const int lo = std::max(0, x - pad), hi = std::min(w, x + pad + 1);
    if (out >= 0) AddSpan(counts + size_t(out) * size_t(w), lo, hi, down, uint16_t{0xFFFF});
    if (in >= 0) AddSpan(counts + size_t(in) * size_t(w), lo, hi, up, uint16_t{1});
  };
  const auto base_v = hn::Set(d, uint16_t(base));
  const auto last_v = hn::Set(d, uint16_t(band - 1));
  HWY_ALIGN uint16_t outs[hn::MaxLanes(d)], ins[hn::MaxLanes(d)];
  int x = 0;
  // A vector of columns at a time: those whose samples cancel are skipped
  // together, the others taken in order.
  for (; band > 0 && x + lanes <= w; x += lanes) {
    const auto out = BandRows(leaving, x, base_v, last_v);
    const auto in = BandRows(entering, x, base_v, last_v);
    if (hn::AllTrue(d, hn::Eq(out, in))) continue;
    hn::Store(out, d, outs);
    hn::Store(in, d, ins);
    for (int i = 0; i < lanes; ++i)
      slide(x + i, outs[i] == 0xFFFF ? -1 : outs[i], ins[i] == 0xFFFF ? -1 : ins[i]);
  }
  for (; x < w; ++x) slide(x, BandRow(leaving, x, base, band), BandRow(entering, x, base, band));
}

}  // namespace exactvq::cambi::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::cambi {

HWY_EXPORT(SlideCounts);

void slide_counts(uint16_t* counts, CountsRow leaving, CountsRow entering, int w, int pad, int base,
                  int band) {
  HWY_DYNAMIC_DISPATCH(SlideCounts)(counts, leaving, entering, w, pad, base, band);
}

}  // namespace exactvq::cambi
#endif  // HWY_ONCE
