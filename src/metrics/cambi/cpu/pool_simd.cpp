// Cambi's pooling (pool.h) as a Highway kernel: one pass counts the positive
// values, finds the smallest and sums them all in binary64, lane by lane; the
// reference pools where that sum is not provably its own.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "metrics/cambi/pool.h"
#include "metrics/cambi/reference.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/cambi/cpu/pool_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#ifndef EXACTVQ_CAMBI_POOL_SUMMARY
#define EXACTVQ_CAMBI_POOL_SUMMARY
namespace exactvq::cambi {
// What the pass finds: the positive values' count, the smallest, the count of
// the others that are not zero (negative or NaN), the sum of all.
struct PoolSummary {
  int64_t positives = 0, others = 0;
  float smallest = std::numeric_limits<float>::infinity();
  double sum = 0;
};
}  // namespace exactvq::cambi
#endif

HWY_BEFORE_NAMESPACE();
namespace exactvq::cambi::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

PoolSummary Summarise(const float* values, int64_t n) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;  // as many floats as doubles
  const hn::Rebind<int64_t, decltype(dd)> di;
  const int64_t lanes = int64_t(hn::Lanes(dd));
  const auto zero = hn::Zero(dd);
  const auto infinity = hn::Set(dd, double(std::numeric_limits<float>::infinity()));
  auto sum = hn::Zero(dd), smallest = infinity;
  auto positives = hn::Zero(di), others = hn::Zero(di);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto v = hn::PromoteTo(dd, hn::LoadU(df, values + i));  // exact
    const auto positive = hn::Gt(v, zero);
    smallest = hn::Min(smallest, hn::IfThenElse(positive, v, infinity));
    positives = hn::Sub(positives, hn::VecFromMask(di, hn::RebindMask(di, positive)));
    // Neither positive nor zero: negative or NaN.
    const auto other = hn::Not(hn::Or(positive, hn::Eq(v, zero)));
    others = hn::Sub(others, hn::VecFromMask(di, hn::RebindMask(di, other)));
    sum = hn::Add(sum, v);
  }
  PoolSummary s;
  s.smallest = float(hn::GetLane(hn::MinOfLanes(dd, smallest)));
  s.positives = hn::GetLane(hn::SumOfLanes(di, positives));
  s.others = hn::GetLane(hn::SumOfLanes(di, others));
  s.sum = hn::GetLane(hn::SumOfLanes(dd, sum));
  for (; i < n; ++i) {
    const float v = values[i];
    if (v > 0) {
      ++s.positives;
      s.smallest = std::min(s.smallest, v);
    } else if (!(v == 0)) {
      ++s.others;
    }
    s.sum += double(v);
  }
  return s;
}

}  // namespace exactvq::cambi::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::cambi {

HWY_EXPORT(Summarise);

namespace {

// 2^53 times the unit in the last place of the positive binary32 `v`.
double exact_bound(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const int field = int(bits >> 23) & 0xFF;  // 0: subnormal, whose unit is that of field 1
  return std::ldexp(1.0, std::max(field, 1) - 127 - 23 + 53);
}

}  // namespace

double pool_topk_simd(std::span<float> values, double topk) {
  const int n = int(values.size());
  const int k = std::clamp(int(topk * n), 1, n);
  const PoolSummary s = HWY_DYNAMIC_DISPATCH(Summarise)(values.data(), int64_t(n));
  // No NaN or negative value comes from the contrast values; were one there,
  // the reference would pool it.
  if (s.others == 0 && s.positives <= k && (s.positives == 0 || s.sum < exact_bound(s.smallest)))
    return s.sum / k;
  return pool_topk(values, topk);
}

}  // namespace exactvq::cambi
#endif  // HWY_ONCE
