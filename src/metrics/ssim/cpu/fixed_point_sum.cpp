// The `exact` sum (spec/ssim.md) as a Highway kernel: each term rounded to the
// 2^-64 fixed point in integer lanes, straight from its sign, exponent and
// significand (as ssim::to_fixed64 does), and added as integers.
//
// Terms below 2^19 in magnitude (all that the spec's bounds allow) take the
// fast path of term_lanes-inl.h (AddFixedFast: two roundings by adding 1.5 * 2^52,
// binary64 bits summed as integers). Any other vector takes the general path:
// a term q = round_half_even(term * 2^64) spans up to 81 bits (|term| <= 2^17),
// so each lane splits |q| into three pieces, lo (bits 0-31), mid (32-63) and
// hi (64 and up), each below 2^32, and adds them with q's sign into three
// 64-bit accumulators; the row's total, lo + mid * 2^32 + hi * 2^64, is formed
// in 128 bits once at the end. Integer sums: any order gives the same bits.
#include "metrics/ssim/cpu/ssim_kernels.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/ssim/cpu/fixed_point_sum.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "metrics/ssim/cpu/term_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

ssim::int128 FixedSum(const double* HWY_RESTRICT terms, size_t n) {
  const hn::ScalableTag<double> df;
  const size_t lanes = hn::Lanes(df);
  auto fast_a = hn::Zero(hn::RebindToUnsigned<decltype(df)>()), fast_b = fast_a;
  auto lo = hn::Zero(hn::RebindToSigned<decltype(df)>()), mid = lo, hi = lo;
  FixedSumCounts counts;
  size_t i = 0;
  for (; i + lanes <= n; i += lanes)
    FixedSumAdd(df, hn::LoadU(df, terms + i), fast_a, fast_b, lo, mid, hi, counts);
  ssim::int128 sum = FixedSumTotal(df, fast_a, fast_b, lo, mid, hi, counts);
  for (; i < n; ++i) sum += ssim::to_fixed64(terms[i]);
  return sum;
}

}  // namespace exactvq::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::cpu {

HWY_EXPORT(FixedSum);

ssim::int128 fixed_point_sum(const double* terms, size_t n) {
  return HWY_DYNAMIC_DISPATCH(FixedSum)(terms, n);
}

}  // namespace exactvq::cpu
#endif  // HWY_ONCE
