// The window's passes and the products (twins of the reference's
// window_horizontal, window_vertical and products) as Highway kernels. One
// output a binary64 lane: each tap's product in a binary32 lane (the
// reference's float product), widened and added to the lane's binary64 sum
// in tap order from 0.0, the sum rounded to binary32 at the end. Columns past
// the last whole vector run the reference on the remainder.
#include <array>

#include "metrics/float_ssim/cpu/float_ssim_simd.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/float_ssim/cpu/window.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::float_ssim::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR
// One-lane vectors gain nothing over the reference (which the compiler
// vectorises for the baseline): the reference is the kernel.
void WindowHorizontal(const float* in, int out_width, float* out) {
  kReferenceStages.window_horizontal(in, out_width, out);
}
void WindowVertical(std::span<const float* const> rows, int width, float* out) {
  kReferenceStages.window_vertical(rows, width, out);
}
void Products(const float* ref, const float* cmp, int n, float* ref_sq, float* cmp_sq,
              float* both) {
  kReferenceStages.products(ref, cmp, n, ref_sq, cmp_sq, both);
}
#else

using D64 = hn::ScalableTag<double>;
using DF = hn::Rebind<float, D64>;  // binary32 lanes, as many as D64's
using V64 = hn::Vec<D64>;
using D32 = hn::ScalableTag<float>;

void WindowHorizontal(const float* in, int out_width, float* out) {
  const D64 d;
  const DF df;
  const int lanes = int(hn::Lanes(d));
  const float* g = kWindowTaps.data();
  int x = 0;
  // Two vectors at a time: two independent chains of additions.
  for (; x + 2 * lanes <= out_width; x += 2 * lanes) {
    V64 sum0 = hn::Zero(d), sum1 = hn::Zero(d);
#pragma GCC unroll 11
    for (int k = 0; k < kWindow; ++k) {
      const auto t = hn::Set(df, g[k]);
      sum0 = hn::Add(sum0, hn::PromoteTo(d, hn::Mul(hn::LoadU(df, in + x + k), t)));
      sum1 = hn::Add(sum1, hn::PromoteTo(d, hn::Mul(hn::LoadU(df, in + x + lanes + k), t)));
    }
    hn::StoreU(hn::DemoteTo(df, sum0), df, out + x);
    hn::StoreU(hn::DemoteTo(df, sum1), df, out + x + lanes);
  }
  for (; x + lanes <= out_width; x += lanes) {
    V64 sum = hn::Zero(d);
#pragma GCC unroll 11
    for (int k = 0; k < kWindow; ++k)
      sum = hn::Add(sum, hn::PromoteTo(d, hn::Mul(hn::LoadU(df, in + x + k), hn::Set(df, g[k]))));
    hn::StoreU(hn::DemoteTo(df, sum), df, out + x);
  }
  if (x < out_width) kReferenceStages.window_horizontal(in + x, out_width - x, out + x);
}

void WindowVertical(std::span<const float* const> rows, int width, float* out) {
  const D64 d;
  const DF df;
  const int lanes = int(hn::Lanes(d));
  const float* g = kWindowTaps.data();
  std::array<const float*, kWindow> r{};
  for (size_t k = 0; k < size_t(kWindow); ++k) r[k] = rows[k];
  int x = 0;
  for (; x + 2 * lanes <= width; x += 2 * lanes) {
    V64 sum0 = hn::Zero(d), sum1 = hn::Zero(d);
#pragma GCC unroll 11
    for (size_t k = 0; k < size_t(kWindow); ++k) {
      const auto t = hn::Set(df, g[k]);
      sum0 = hn::Add(sum0, hn::PromoteTo(d, hn::Mul(hn::LoadU(df, r[k] + x), t)));
      sum1 = hn::Add(sum1, hn::PromoteTo(d, hn::Mul(hn::LoadU(df, r[k] + x + lanes), t)));
    }
    hn::StoreU(hn::DemoteTo(df, sum0), df, out + x);
    hn::StoreU(hn::DemoteTo(df, sum1), df, out + x + lanes);
  }
  for (; x + lanes <= width; x += lanes) {
    V64 sum = hn::Zero(d);
#pragma GCC unroll 11
    for (size_t k = 0; k < size_t(kWindow); ++k)
      sum = hn::Add(sum, hn::PromoteTo(d, hn::Mul(hn::LoadU(df, r[k] + x), hn::Set(df, g[k]))));
    hn::StoreU(hn::DemoteTo(df, sum), df, out + x);
  }
  if (x < width) {
    for (size_t k = 0; k < size_t(kWindow); ++k) r[k] += x;
    kReferenceStages.window_vertical(r, width - x, out + x);
  }
}

void Products(const float* ref, const float* cmp, int n, float* ref_sq, float* cmp_sq,
              float* both) {
  const D32 d;
  const int lanes = int(hn::Lanes(d));
  int x = 0;
  for (; x + lanes <= n; x += lanes) {
    const auto a = hn::LoadU(d, ref + x), b = hn::LoadU(d, cmp + x);
    hn::StoreU(hn::Mul(a, a), d, ref_sq + x);
    hn::StoreU(hn::Mul(b, b), d, cmp_sq + x);
    hn::StoreU(hn::Mul(a, b), d, both + x);
  }
  if (x < n) kReferenceStages.products(ref + x, cmp + x, n - x, ref_sq + x, cmp_sq + x, both + x);
}

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace exactvq::float_ssim::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::float_ssim::cpu {

HWY_EXPORT(WindowHorizontal);
HWY_EXPORT(WindowVertical);
HWY_EXPORT(Products);

void window_horizontal(const float* in, int out_width, float* out) {
  HWY_DYNAMIC_DISPATCH(WindowHorizontal)(in, out_width, out);
}

void window_vertical(std::span<const float* const> rows, int width, float* out) {
  HWY_DYNAMIC_DISPATCH(WindowVertical)(rows, width, out);
}

void products(const float* ref, const float* cmp, int n, float* ref_sq, float* cmp_sq,
              float* both) {
  HWY_DYNAMIC_DISPATCH(Products)(ref, cmp, n, ref_sq, cmp_sq, both);
}

}  // namespace exactvq::float_ssim::cpu
#endif  // HWY_ONCE
