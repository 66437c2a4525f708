// Cambi's spatial mask and mode filter (image_stages.h) as Highway kernels,
// twins of reference.cpp's; every target Highway offers is compiled in and the
// best one runs. Codes (at most 1024) and counts (at most 49) fit 16-bit
// signed lanes, so equality, Min and the sums are those of the reference's
// ints; vectors take whole runs of a row, the rest one sample at a time.
#include <algorithm>
#include <vector>

#include "metrics/cambi/image_stages.h"
#include "metrics/cambi/reference.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/cambi/cpu/image_stages_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::cambi::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DI = hn::ScalableTag<int16_t>;

constexpr int kReach = 3;  // the 7x7 mask window's half side

// flat[x] = -1 where sample (x, y) equals its right and lower neighbours (a
// missing one counts as equal), else 0.
HWY_INLINE void FlatRow(const int16_t* HWY_RESTRICT image, int w, int h, int y,
                        int16_t* HWY_RESTRICT flat) {
  const DI d;
  const int lanes = int(hn::Lanes(d));
  const int16_t* row = image + size_t(y) * size_t(w);
  const int16_t* below = y + 1 < h ? row + w : nullptr;
  int x = 0;
  // Whole vectors while the right neighbours lie inside the row.
  for (; x + lanes < w; x += lanes) {
    const auto v = hn::LoadU(d, row + x);
    auto equal = hn::Eq(v, hn::LoadU(d, row + x + 1));
    if (below) equal = hn::And(equal, hn::Eq(v, hn::LoadU(d, below + x)));
    hn::StoreU(hn::VecFromMask(d, equal), d, flat + x);
  }
  for (; x < w; ++x) {
    const bool right = x == w - 1 || row[x] == row[x + 1];
    const bool down = !below || row[x] == below[x];
    flat[x] = right && down ? int16_t{-1} : int16_t{0};
  }
}

// column[x] += entering[x] present - leaving[x] present, the rows as FlatRow
// makes them (-1: flat); a null row is absent.
HWY_INLINE void MoveColumns(const int16_t* HWY_RESTRICT entering,
                            const int16_t* HWY_RESTRICT leaving, int w,
                            int16_t* HWY_RESTRICT column) {
  const DI d;
  const int lanes = int(hn::Lanes(d));
  int x = 0;
  for (; x + lanes <= w; x += lanes) {
    auto c = hn::LoadU(d, column + x);
    if (entering) c = hn::Sub(c, hn::LoadU(d, entering + x));
    if (leaving) c = hn::Add(c, hn::LoadU(d, leaving + x));
    hn::StoreU(c, d, column + x);
  }
  for (; x < w; ++x)
    column[x] = int16_t(column[x] - (entering ? entering[x] : 0) + (leaving ? leaving[x] : 0));
}

// Row y's mask from the column counts: out[x] = the 7 columns' sum around x
// exceeds the threshold; with `halved`, only the even columns, at x / 2.
HWY_INLINE void MaskRow(const int16_t* HWY_RESTRICT column, int w, int threshold, bool halved,
                        uint8_t* HWY_RESTRICT out) {
  const DI d;
  const int lanes = int(hn::Lanes(d));
  const auto limit = hn::Set(d, int16_t(threshold));
  const auto one = hn::Set(d, int16_t{1});
  int x = 0;
#if HWY_TARGET != HWY_SCALAR
  const hn::Rebind<uint8_t, DI> d8;
  const hn::Repartition<uint32_t, DI> d32;  // an even column and the next odd one
  const hn::Rebind<uint8_t, decltype(d32)> d8_even;
  for (; x + lanes <= w; x += lanes) {
    auto count = hn::LoadU(d, column + x);
    for (int k = 1; k <= 2 * kReach; ++k) count = hn::Add(count, hn::LoadU(d, column + x + k));
    const auto masked = hn::IfThenElseZero(hn::Gt(count, limit), one);
    if (halved)  // the even column's 0 or 1 is the low byte of the pair's 32 bits
      hn::StoreU(hn::TruncateTo(d8_even, hn::BitCast(d32, masked)), d8_even, out + x / 2);
    else
      hn::StoreU(hn::DemoteTo(d8, masked), d8, out + x);
  }
#else
  (void)d, (void)lanes, (void)limit, (void)one;
#endif
  for (; x < w; ++x) {
    if (halved && x % 2) continue;
    int count = 0;
    for (int k = 0; k <= 2 * kReach; ++k) count += column[x + k];
    out[halved ? x / 2 : x] = count > threshold;
  }
}

// The flat rows in the window are kept in a ring of 8 (the entering row y + 3
// and the leaving row y - 4 never share a slot), each found once. With
// `halved`, only the even rows' and columns' mask, (w + 1) / 2 a row: what
// the first decimation keeps.
void SpatialMask(const uint16_t* image16, int w, int h, uint8_t* mask, int threshold, bool halved) {
  const int16_t* image = reinterpret_cast<const int16_t*>(image16);
  constexpr int kRing = 8;
  // The columns' counts with kReach zeros each side (the horizontal window
  // sums 7 neighbours whatever the column), then the ring.
  thread_local std::vector<int16_t> storage;
  const size_t line = size_t(w) + 2 * kReach;
  storage.assign(line * (kRing + 1), 0);
  int16_t* column = storage.data();
  const auto flat = [&](int y) { return storage.data() + line * size_t(1 + y % kRing); };
  for (int y = 0; y < std::min(kReach, h); ++y) {
    FlatRow(image, w, h, y, flat(y));
    MoveColumns(flat(y), nullptr, w, column + kReach);
  }
  const size_t out_width = halved ? size_t((w + 1) >> 1) : size_t(w);
  for (int y = 0; y < h; ++y) {
    const int16_t* entering = nullptr;
    if (y + kReach < h) {
      FlatRow(image, w, h, y + kReach, flat(y + kReach));
      entering = flat(y + kReach);
    }
    const int16_t* leaving = y - kReach - 1 >= 0 ? flat(y - kReach - 1) : nullptr;
    MoveColumns(entering, leaving, w, column + kReach);
    if (halved && y % 2) continue;
    MaskRow(column, w, threshold, halved, mask + size_t(halved ? y / 2 : y) * out_width);
  }
}

// A row of up-to-10-bit samples shifted up to 10 bits.
template <typename Sample>
HWY_INLINE void ShiftRowUp(const Sample* HWY_RESTRICT in, int w, int up,
                           uint16_t* HWY_RESTRICT out) {
  const hn::ScalableTag<uint16_t> d;
  const hn::Rebind<Sample, decltype(d)> ds;
  const int lanes = int(hn::Lanes(d));
  int x = 0;
  for (; x + lanes <= w; x += lanes) {
    hn::Vec<decltype(d)> v;
    if constexpr (sizeof(Sample) == 1)
      v = hn::PromoteTo(d, hn::LoadU(ds, in + x));
    else
      v = hn::LoadU(d, in + x);
    hn::StoreU(hn::ShiftLeftSame(v, up), d, out + x);
  }
  for (; x < w; ++x) out[x] = uint16_t(in[x] << up);
}

// Row y of anti_dither's pass: each sample the mean of its 2x2 block (pairs
// at the last column), from `row` and `below` as they were before the pass;
// left to right in place, a vector's sums read the samples to its right (the
// next vector's, not yet stored). Sums of four codes fit 16 bits.
HWY_INLINE void AntiDitherRow(uint16_t* HWY_RESTRICT row, const uint16_t* HWY_RESTRICT below,
                              int w) {
  const hn::ScalableTag<uint16_t> d;
  const int lanes = int(hn::Lanes(d));
  int x = 0;
  for (; x + lanes < w; x += lanes) {
    const auto top = hn::Add(hn::LoadU(d, row + x), hn::LoadU(d, row + x + 1));
    const auto bottom = hn::Add(hn::LoadU(d, below + x), hn::LoadU(d, below + x + 1));
    hn::StoreU(hn::ShiftRight<2>(hn::Add(top, bottom)), d, row + x);
  }
  for (; x + 1 < w; ++x) row[x] = uint16_t((row[x] + row[x + 1] + below[x] + below[x + 1]) >> 2);
  row[w - 1] = uint16_t((row[w - 1] + below[w - 1]) >> 1);
}

// The last row's pass: pairs along the row.
HWY_INLINE void AntiDitherLastRow(uint16_t* HWY_RESTRICT last, int w) {
  const hn::ScalableTag<uint16_t> d;
  const int lanes = int(hn::Lanes(d));
  int x = 0;
  for (; x + lanes < w; x += lanes)
    hn::StoreU(hn::ShiftRight<1>(hn::Add(hn::LoadU(d, last + x), hn::LoadU(d, last + x + 1))), d,
               last + x);
  for (; x + 1 < w; ++x) last[x] = uint16_t((last[x] + last[x + 1]) >> 1);
}

// The picture's rows shifted up to 10 bits, each row anti-dithered (with
// `smooth`) once the row below it is converted: the reference's two passes
// in one, rows still in cache.
void ShiftUp(const uint8_t* data, ptrdiff_t stride, int bytes_per_sample, int w, int h, int up,
             bool smooth, uint16_t* out) {
  const auto convert = [&](int y) {
    const uint8_t* row = data + y * stride;
    uint16_t* dst = out + size_t(y) * size_t(w);
    if (bytes_per_sample == 1)
      ShiftRowUp(row, w, up, dst);
    else
      ShiftRowUp(reinterpret_cast<const uint16_t*>(row), w, up, dst);
  };
  convert(0);
  for (int y = 0; y + 1 < h; ++y) {
    convert(y + 1);
    uint16_t* row = out + size_t(y) * size_t(w);
    if (smooth) AntiDitherRow(row, row + w, w);
  }
  if (smooth) AntiDitherLastRow(out + size_t(h - 1) * size_t(w), w);
}

// In place, row by row from the top: each row's pass reads the row below
// before its own pass, as the reference's does.
void AntiDither(uint16_t* image, int w, int h) {
  for (int y = 0; y + 1 < h; ++y) {
    uint16_t* row = image + size_t(y) * size_t(w);
    AntiDitherRow(row, row + w, w);
  }
  AntiDitherLastRow(image + size_t(h - 1) * size_t(w), w);
}

// The majority of three, else the smallest (reference.cpp's mode3).
HWY_INLINE hn::Vec<DI> Mode3(hn::Vec<DI> a, hn::Vec<DI> b, hn::Vec<DI> c) {
  const auto b_or_min = hn::IfThenElse(hn::Eq(b, c), b, hn::Min(hn::Min(a, b), c));
  return hn::IfThenElse(hn::Or(hn::Eq(a, b), hn::Eq(a, c)), a, b_or_min);
}

HWY_INLINE int16_t Mode3(int16_t a, int16_t b, int16_t c) {
  if (a == b || a == c) return a;
  if (b == c) return b;
  return std::min({a, b, c});
}

// The horizontal pass of one row: mode3 of each sample and its neighbours,
// the first and last samples as they are.
HWY_INLINE void HorizontalPass(const int16_t* HWY_RESTRICT in, int w, int16_t* HWY_RESTRICT out) {
  const DI d;
  const int lanes = int(hn::Lanes(d));
  out[0] = in[0];
  int x = 1;
  for (; x + lanes < w; x += lanes)
    hn::StoreU(Mode3(hn::LoadU(d, in + x - 1), hn::LoadU(d, in + x), hn::LoadU(d, in + x + 1)), d,
               out + x);
  for (; x + 1 < w; ++x) out[x] = Mode3(in[x - 1], in[x], in[x + 1]);
  out[w - 1] = in[w - 1];
}

void ModeFilter(uint16_t* image16, int w, int h) {
  if (h < 3) return;  // only the first and last rows: they stay
  const DI d;
  const int lanes = int(hn::Lanes(d));
  int16_t* image = reinterpret_cast<int16_t*>(image16);
  thread_local std::vector<int16_t> storage;
  storage.resize(3 * size_t(w));
  const auto pass = [&](int y) { return storage.data() + size_t(y % 3) * size_t(w); };
  HorizontalPass(image, w, pass(0));
  HorizontalPass(image + w, w, pass(1));
  for (int y = 1; y + 1 < h; ++y) {
    // Row y + 1 is still the input's: rows are written from the top.
    HorizontalPass(image + size_t(y + 1) * size_t(w), w, pass(y + 1));
    const int16_t *above = pass(y - 1), *mid = pass(y), *below = pass(y + 1);
    int16_t* out = image + size_t(y) * size_t(w);
    int x = 0;
    for (; x + lanes <= w; x += lanes)
      hn::StoreU(Mode3(hn::LoadU(d, above + x), hn::LoadU(d, mid + x), hn::LoadU(d, below + x)), d,
                 out + x);
    for (; x < w; ++x) out[x] = Mode3(above[x], mid[x], below[x]);
  }
}

// In place, as the reference: each row's stores end before the samples the
// loads have yet to read (row y's outputs lie below position 2 y w + 2 x).
template <typename T>
void DecimateInPlace(T* image, int w, int h) {
#if HWY_TARGET == HWY_SCALAR
  decimate(image, w, h);
#else
  const hn::ScalableTag<T> d;
  const int lanes = int(hn::Lanes(d));
  const int nw = (w + 1) >> 1, nh = (h + 1) >> 1;
  for (int y = 0; y < nh; ++y) {
    const T* src = image + size_t(2 * y) * size_t(w);
    T* dst = image + size_t(y) * size_t(nw);
    int x = 0;
    for (; 2 * x + 2 * lanes <= w; x += lanes) {
      const auto lo = hn::LoadU(d, src + 2 * x);
      const auto hi = hn::LoadU(d, src + 2 * x + lanes);
      hn::StoreU(hn::ConcatEven(d, hi, lo), d, dst + x);
    }
    for (; x < nw; ++x) dst[x] = src[2 * x];
  }
#endif
}

void Decimate16(uint16_t* image, int w, int h) { DecimateInPlace(image, w, h); }
void Decimate8(uint8_t* image, int w, int h) { DecimateInPlace(image, w, h); }

}  // namespace exactvq::cambi::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::cambi {

HWY_EXPORT(SpatialMask);
HWY_EXPORT(ModeFilter);
HWY_EXPORT(ShiftUp);
HWY_EXPORT(AntiDither);
HWY_EXPORT(Decimate16);
HWY_EXPORT(Decimate8);

void ten_bit_image_simd(const PlaneView& luma, const CambiSetup& s, const ImagePlan& plan,
                        uint16_t* out) {
  if (!plan.source_cols.empty() || s.input_bitdepth > 10) {
    ten_bit_image(luma, s, plan, out);
    return;
  }
  HWY_DYNAMIC_DISPATCH(ShiftUp)
  (luma.data, luma.stride, luma.bytes_per_sample, plan.width, plan.height, 10 - s.input_bitdepth,
   s.enc_bitdepth < 10, out);
}

void anti_dither_simd(uint16_t* image, int w, int h) {
  HWY_DYNAMIC_DISPATCH(AntiDither)(image, w, h);
}

void spatial_mask_simd(const uint16_t* image, int w, int h, uint8_t* mask, bool halved) {
  HWY_DYNAMIC_DISPATCH(SpatialMask)(image, w, h, mask, mask_threshold(w, h), halved);
}

void decimate_simd(uint16_t* image, int w, int h) { HWY_DYNAMIC_DISPATCH(Decimate16)(image, w, h); }

void decimate_simd(uint8_t* image, int w, int h) { HWY_DYNAMIC_DISPATCH(Decimate8)(image, w, h); }

void mode_filter_simd(uint16_t* image, int w, int h) {
  HWY_DYNAMIC_DISPATCH(ModeFilter)(image, w, h);
}

}  // namespace exactvq::cambi
#endif  // HWY_ONCE
