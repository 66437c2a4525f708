// SpEED's covariance sums as a Highway kernel, the twin of
// covariance_sums_reference: for each sample position of the window, the 25
// centred values are formed once (the reference's operations) and each of the
// 325 sums adds its product, a lane a sum, Mul then Add (never fused). Every sum
// still adds its terms in raster order, so its bits are the reference's.
#include <vector>

#include "metrics/speed/covariance.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/speed/cpu/covariance_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/aligned_allocator.h>
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::speed::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void CovarianceSums(const float* data, size_t stride, int width, int height, const float* means,
                    double* sums) {
  const hn::ScalableTag<double> d;
  const size_t lanes = hn::Lanes(d);
  // Row x of the accumulators holds the sums of pairs (x, 0..x), padded to
  // whole vectors; the padding lanes add products no one reads.
  size_t offset[kWindows + 1];
  offset[0] = 0;
  for (int x = 0; x < kWindows; ++x)
    offset[x + 1] = offset[x] + (size_t(x) + lanes) / lanes * lanes;
  auto acc = hwy::AllocateAligned<double>(offset[kWindows]);
  // The centred values, with zeros past the 25th for the padding lanes.
  auto centred = hwy::AllocateAligned<double>(size_t(kWindows) + lanes);
  for (size_t i = 0; i < offset[kWindows]; ++i) acc[i] = 0.0;
  for (size_t i = 0; i < size_t(kWindows) + lanes; ++i) centred[i] = 0.0;
  double mean[kWindows];
  for (int k = 0; k < kWindows; ++k) mean[k] = double(means[k]);
  for (int i = 0; i < height; ++i) {
    const float* row[kWindows];
    for (int k = 0; k < kWindows; ++k) row[k] = data + size_t(k / 5 + i) * stride + size_t(k % 5);
    for (int j = 0; j < width; ++j) {
      for (int k = 0; k < kWindows; ++k) centred[k] = double(row[k][j]) - mean[k];
      for (int x = 0; x < kWindows; ++x) {
        const auto vx = hn::Set(d, centred[size_t(x)]);
        double* a = acc.get() + offset[x];
        for (size_t y = 0; y <= size_t(x); y += lanes) {
          const auto product = hn::Mul(vx, hn::Load(d, centred.get() + y));
          hn::Store(hn::Add(hn::Load(d, a + y), product), d, a + y);
        }
      }
    }
  }
  for (int x = 0; x < kWindows; ++x)
    for (int y = 0; y <= x; ++y) sums[x * (x + 1) / 2 + y] = acc[offset[x] + size_t(y)];
}

// A vector of windows (r, c0 ..) at a time: lane k adds E[r + i][c0 + k + j]
// at step (i, j), so each lane sums its window in raster order; lanes past
// the fifth column add floats no one reads.
void WindowSums(const float* data, size_t stride, int width, int height, float* sums) {
  const hn::CappedTag<float, kWindowSumsOverread> d;
  const int lanes = int(hn::Lanes(d));
  float lane_sums[kWindowSumsOverread];
  for (int r = 0; r < 5; ++r)
    for (int c0 = 0; c0 < 5; c0 += lanes) {
      auto acc = hn::Zero(d);
      for (int i = 0; i < height; ++i) {
        const float* row = data + size_t(r + i) * stride + size_t(c0);
        for (int j = 0; j < width; ++j) acc = hn::Add(acc, hn::LoadU(d, row + j));
      }
      hn::StoreU(acc, d, lane_sums);
      for (int k = 0; k < lanes && c0 + k < 5; ++k) sums[r * 5 + c0 + k] = lane_sums[k];
    }
}

}  // namespace exactvq::speed::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::speed {

HWY_EXPORT(CovarianceSums);
HWY_EXPORT(WindowSums);

void window_sums(const float* data, size_t stride, int width, int height, float* sums) {
  HWY_DYNAMIC_DISPATCH(WindowSums)(data, stride, width, height, sums);
}

void covariance_sums(const float* data, size_t stride, int width, int height, const float* means,
                     double* sums) {
  HWY_DYNAMIC_DISPATCH(CovarianceSums)(data, stride, width, height, means, sums);
}

}  // namespace exactvq::speed
#endif  // HWY_ONCE
