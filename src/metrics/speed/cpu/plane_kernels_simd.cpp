// SpEED's plane stages (plane_kernels.h) as Highway kernels, twins of
// reference.cpp's: a vector of columns at a time, each lane doing its column's
// operations in the reference's order (Mul then Add, never fused; the
// conversions and the division exact or correctly rounded as the scalar's),
// the columns past the last whole vector one at a time. A sample divided by
// 2^(bitdepth - 8) is multiplied by 2^-(bitdepth - 8) instead: the sample is an
// integer below 2^16, so both quotients are exact (the significand kept, the
// exponent lowered, far from underflow) and equal.
#include "metrics/speed/plane_kernels.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/speed/cpu/plane_kernels_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::speed::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;

void FilterColumns(const float* HWY_RESTRICT f, int taps, const float* const* rows, int w,
                   float* HWY_RESTRICT out) {
  const DF d;
  const int lanes = int(hn::Lanes(d));
  int j = 0;
  // Two vectors a step: each tap's weight is broadcast once for both.
  for (; j + 2 * lanes <= w; j += 2 * lanes) {
    auto a0 = hn::Zero(d), a1 = hn::Zero(d);
    for (int t = 0; t < taps; ++t) {
      const auto weight = hn::Set(d, f[t]);
      a0 = hn::Add(a0, hn::Mul(weight, hn::LoadU(d, rows[t] + j)));
      a1 = hn::Add(a1, hn::Mul(weight, hn::LoadU(d, rows[t] + j + lanes)));
    }
    hn::StoreU(a0, d, out + j);
    hn::StoreU(a1, d, out + j + lanes);
  }
  for (; j + lanes <= w; j += lanes) {
    auto a = hn::Zero(d);
    for (int t = 0; t < taps; ++t)
      a = hn::Add(a, hn::Mul(hn::Set(d, f[t]), hn::LoadU(d, rows[t] + j)));
    hn::StoreU(a, d, out + j);
  }
  for (; j < w; ++j) {
    float acc = 0;
    for (int t = 0; t < taps; ++t) acc += f[t] * rows[t][j];
    out[j] = acc;
  }
}

// load_plane's values of lanes samples from `row` + j.
template <typename Sample>
HWY_INLINE hn::Vec<DF> Converted(const uint8_t* row, int j, hn::Vec<DF> reciprocal,
                                 hn::Vec<DF> offset) {
  const DF d;
  const hn::Rebind<int32_t, DF> di;
  const hn::Rebind<Sample, DF> ds;
  const auto v =
      hn::ConvertTo(d, hn::PromoteTo(di, hn::LoadU(ds, reinterpret_cast<const Sample*>(row) + j)));
  if constexpr (sizeof(Sample) == 1)
    return hn::Add(v, offset);
  else
    return hn::Add(hn::Mul(v, reciprocal), offset);
}

template <typename Sample>
void FilterSamples(const float* HWY_RESTRICT f, int taps, const uint8_t* const* rows, int bitdepth,
                   int w, float* HWY_RESTRICT out) {
  constexpr float kOffset = -128.0f;
  const DF d;
  const int lanes = int(hn::Lanes(d));
  const auto offset = hn::Set(d, kOffset);
  const float scaler = float(1 << (bitdepth - 8));
  const auto reciprocal = hn::Set(d, 1.0f / scaler);
  int j = 0;
  for (; j + 2 * lanes <= w; j += 2 * lanes) {
    auto a0 = hn::Zero(d), a1 = hn::Zero(d);
    for (int t = 0; t < taps; ++t) {
      const auto weight = hn::Set(d, f[t]);
      a0 = hn::Add(a0, hn::Mul(weight, Converted<Sample>(rows[t], j, reciprocal, offset)));
      a1 = hn::Add(a1, hn::Mul(weight, Converted<Sample>(rows[t], j + lanes, reciprocal, offset)));
    }
    hn::StoreU(a0, d, out + j);
    hn::StoreU(a1, d, out + j + lanes);
  }
  for (; j < w; ++j) {
    float acc = 0;
    for (int t = 0; t < taps; ++t) {
      const Sample s = reinterpret_cast<const Sample*>(rows[t])[j];
      const float v = sizeof(Sample) == 1 ? float(s) + kOffset : float(s) / scaler + kOffset;
      acc += f[t] * v;
    }
    out[j] = acc;
  }
}

void FilterSampleColumns(const float* f, int taps, const uint8_t* const* rows, int bitdepth, int w,
                         float* out) {
  if (bitdepth == 8)
    FilterSamples<uint8_t>(f, taps, rows, bitdepth, w, out);
  else
    FilterSamples<uint16_t>(f, taps, rows, bitdepth, w, out);
}

void LoadPlane(const PlaneView& p, int width, int height, int bitdepth, float* dst, size_t stride) {
  constexpr float kOffset = -128.0f;
  const DF d;
  const hn::Rebind<int32_t, DF> di;
  const int lanes = int(hn::Lanes(d));
  const auto offset = hn::Set(d, kOffset);
  if (bitdepth == 8) {
    const hn::Rebind<uint8_t, DF> d8;
    for (int y = 0; y < height; ++y) {
      const uint8_t* row = p.row<uint8_t>(y);
      float* out = dst + size_t(y) * stride;
      int x = 0;
      for (; x + lanes <= width; x += lanes) {
        const auto v = hn::ConvertTo(d, hn::PromoteTo(di, hn::LoadU(d8, row + x)));
        hn::StoreU(hn::Add(v, offset), d, out + x);
      }
      for (; x < width; ++x) out[x] = float(row[x]) + kOffset;
    }
    return;
  }
  const float scaler = float(1 << (bitdepth - 8));
  const auto reciprocal = hn::Set(d, 1.0f / scaler);
  const hn::Rebind<uint16_t, DF> d16;
  for (int y = 0; y < height; ++y) {
    const uint16_t* row = p.row<uint16_t>(y);
    float* out = dst + size_t(y) * stride;
    int x = 0;
    for (; x + lanes <= width; x += lanes) {
      const auto v = hn::ConvertTo(d, hn::PromoteTo(di, hn::LoadU(d16, row + x)));
      hn::StoreU(hn::Add(hn::Mul(v, reciprocal), offset), d, out + x);
    }
    for (; x < width; ++x) out[x] = float(row[x]) / scaler + kOffset;
  }
}

}  // namespace exactvq::speed::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::speed {

HWY_EXPORT(FilterColumns);
HWY_EXPORT(LoadPlane);
HWY_EXPORT(FilterSampleColumns);

void filter_sample_columns_simd(const float* f, int taps, const uint8_t* const* rows, int bitdepth,
                                int w, float* out) {
  HWY_DYNAMIC_DISPATCH(FilterSampleColumns)(f, taps, rows, bitdepth, w, out);
}

void filter_columns_simd(const float* f, int taps, const float* const* rows, int w, float* out) {
  HWY_DYNAMIC_DISPATCH(FilterColumns)(f, taps, rows, w, out);
}

void load_plane_simd(const PlaneView& p, int width, int height, int bitdepth, float* dst,
                     size_t stride) {
  HWY_DYNAMIC_DISPATCH(LoadPlane)(p, width, height, bitdepth, dst, stride);
}

}  // namespace exactvq::speed
#endif  // HWY_ONCE
