// SpEED's plane stages (plane_kernels.h) as Highway kernels, twins of
// reference.cpp's: a vector of columns at a time, each lane doing its column's
// operations in the reference's order (Mul then Add, never fused; the
// conversions and the division exact or correctly rounded as the scalar's),
// the columns past the last whole vector one at a time.
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
  const auto divisor = hn::Set(d, scaler);
  const hn::Rebind<uint16_t, DF> d16;
  for (int y = 0; y < height; ++y) {
    const uint16_t* row = p.row<uint16_t>(y);
    float* out = dst + size_t(y) * stride;
    int x = 0;
    for (; x + lanes <= width; x += lanes) {
      const auto v = hn::ConvertTo(d, hn::PromoteTo(di, hn::LoadU(d16, row + x)));
      hn::StoreU(hn::Add(hn::Div(v, divisor), offset), d, out + x);
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

void filter_columns_simd(const float* f, int taps, const float* const* rows, int w, float* out) {
  HWY_DYNAMIC_DISPATCH(FilterColumns)(f, taps, rows, w, out);
}

void load_plane_simd(const PlaneView& p, int width, int height, int bitdepth, float* dst,
                     size_t stride) {
  HWY_DYNAMIC_DISPATCH(LoadPlane)(p, width, height, bitdepth, dst, stride);
}

}  // namespace exactvq::speed
#endif  // HWY_ONCE
