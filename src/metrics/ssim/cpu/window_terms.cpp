// The vertical pass, the binary64 term and the `exact` sum fused into one
// Highway kernel per output row: the window moments and the terms stay in
// registers instead of making a round trip through memory. Each step is the
// same lane code as its stage kernel (tap_filter-inl.h, term_lanes-inl.h).
#include "metrics/ssim/cpu/ssim_kernels.h"
#include "metrics/ssim/taps.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/ssim/cpu/window_terms.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "metrics/ssim/cpu/tap_filter-inl.h"
#include "metrics/ssim/cpu/term_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using ssim::kTap;
using ssim::kTaps;

// Window moment i of one quantity, one pixel at a time (row tails).
template <typename In>
uint64_t VerticalAt(const In* const* rows, size_t i) {
  uint64_t sum = 0;
  for (int k = 0; k < kTaps; ++k)
    if (rows[k]) sum += uint64_t{kTap[size_t(k)]} * rows[k][i];
  return sum;
}

// The nine-tap vertical sum of lanes [i, i + lanes) of one quantity.
template <class D, typename In>
HWY_INLINE hn::Vec<D> VerticalLanes(D d, const In* const* rows, bool full, size_t i) {
  auto load = [&](int k) {
    if constexpr (sizeof(In) == sizeof(hn::TFromD<D>))
      return hn::LoadU(d, rows[k] + i);
    else
      return hn::PromoteTo(d, hn::LoadU(hn::Rebind<In, D>(), rows[k] + i));
  };
  if (full)
    return FilterNine(load(0), load(1), load(2), load(3), load(4), load(5), load(6), load(7),
                      load(8));
  auto sum = hn::Zero(d);
  for (int k = 0; k < kTaps; ++k)
    if (rows[k]) sum = hn::Add(sum, TapTimes(k, load(k)));
  return sum;
}

// H: horizontal second-order lanes; V: window second-order lanes.
template <typename H, typename V>
ssim::int128 WindowTermsT(const TapRows<H>& rows, const uint32_t* column_weight,
                          uint32_t row_weight, size_t n, const ssim::TermConstants& k,
                          double* HWY_RESTRICT terms, double* raster_sum) {
  size_t i = 0;
  ssim::int128 sum = 0;
  double raster = raster_sum ? *raster_sum : 0.0;
#if HWY_TARGET != HWY_SCALAR  // one lane: the per-pixel loop below does it all
  const hn::ScalableTag<double> df;
  const hn::RebindToUnsigned<decltype(df)> du64;
  const hn::Repartition<uint32_t, decltype(du64)> du32;  // twice the lanes of df
  const size_t lanes64 = hn::Lanes(df), lanes32 = hn::Lanes(du32);
  bool full = true;
  for (int t = 0; t < kTaps; ++t) full = full && rows.m[t] != nullptr;
  const auto row_wd = hn::Set(df, double(row_weight));
  auto half_to_double = [&](auto v32, int half) { return U32HalfToDouble(df, v32, half); };
  // First-order window moments below 2^31 (b <= 12: mux, muy < 2^28) convert
  // with the signed hardware conversion.
  constexpr bool kSignedMu = sizeof(H) == 4;
  auto mu_to_double = [&](auto v32, int half) {
    if constexpr (kSignedMu)
      return HalfToDouble(df, v32, half);
    else
      return half_to_double(v32, half);
  };
  const InteriorColumns columns(column_weight, row_weight, n, k);
  const auto wd_fixed = hn::Set(df, columns.wd);
  const auto c1_fixed = hn::Set(df, columns.c1), c2_fixed = hn::Set(df, columns.c2);
  auto fast_a = hn::Zero(hn::RebindToUnsigned<decltype(df)>()), fast_b = fast_a;
  auto lo = hn::Zero(hn::RebindToSigned<decltype(df)>()), mid = lo, hi = lo;
  FixedSumCounts counts;
  HWY_ALIGN double lane_terms[hn::MaxLanes(df)];
  for (; i + lanes32 <= n; i += lanes32) {
    const bool interior = columns.holds(i, lanes32);
    const auto mux32 = VerticalLanes(du32, rows.m, full, i);
    const auto muy32 = VerticalLanes(du32, rows.n, full, i);
    [[maybe_unused]] hn::Vec<decltype(du32)> x2_32, xy32, y2_32;
    if constexpr (sizeof(V) == 4) {
      x2_32 = VerticalLanes(du32, rows.xx, full, i);
      xy32 = VerticalLanes(du32, rows.xy, full, i);
      y2_32 = VerticalLanes(du32, rows.yy, full, i);
    }
    for (int half = 0; half < 2; ++half) {
      const size_t j = i + size_t(half) * lanes64;
      hn::Vec<decltype(df)> x2, xy, y2;
      if constexpr (sizeof(V) == 4) {
        x2 = half_to_double(x2_32, half);
        xy = half_to_double(xy32, half);
        y2 = half_to_double(y2_32, half);
      } else {
        x2 = ExactToDouble(df, VerticalLanes(du64, rows.xx, full, j));
        xy = ExactToDouble(df, VerticalLanes(du64, rows.xy, full, j));
        y2 = ExactToDouble(df, VerticalLanes(du64, rows.yy, full, j));
      }
      const auto mux = mu_to_double(mux32, half), muy = mu_to_double(muy32, half);
      hn::Vec<decltype(df)> term;
      if (interior) {
        term = TermLanesFixedWeight(df, wd_fixed, c1_fixed, c2_fixed, mux, muy, x2, xy, y2);
      } else {
        // (double)(column_weight * row_weight): the product is below 2^17, so exact.
        const auto wd = hn::Mul(HalfToDouble(df, hn::LoadU(du32, column_weight + i), half), row_wd);
        term = TermLanes(df, wd, mux, muy, x2, xy, y2, k);
      }
      if (terms) hn::StoreU(term, df, terms + j);
      if (raster_sum) {
        // raster mode: the terms one at a time, in order, into the running sum
        // (a chain of dependent additions that overlaps the next lanes' work).
        hn::Store(term, df, lane_terms);
        for (size_t l = 0; l < lanes64; ++l) raster += lane_terms[l];
      }
      FixedSumAdd(df, term, fast_a, fast_b, lo, mid, hi, counts);
    }
  }
  sum = FixedSumTotal(df, fast_a, fast_b, lo, mid, hi, counts);
#endif
  for (; i < n; ++i) {
    const ssim::Moments m{VerticalAt(rows.m, i),  VerticalAt(rows.n, i),
                          VerticalAt(rows.xx, i), VerticalAt(rows.xy, i),
                          VerticalAt(rows.yy, i), uint64_t{column_weight[i]} * row_weight};
    const double term = ssim::ssim_term(m, k);
    if (terms) terms[i] = term;
    if (raster_sum) raster += term;
    sum += ssim::to_fixed64(term);
  }
  if (raster_sum) *raster_sum = raster;
  return sum;
}

ssim::int128 WindowTerms8(const TapRows<uint32_t>& rows, const uint32_t* column_weight,
                          uint32_t row_weight, size_t n, const ssim::TermConstants& k,
                          double* terms, double* raster_sum) {
  return WindowTermsT<uint32_t, uint32_t>(rows, column_weight, row_weight, n, k, terms, raster_sum);
}
ssim::int128 WindowTerms12(const TapRows<uint32_t>& rows, const uint32_t* column_weight,
                           uint32_t row_weight, size_t n, const ssim::TermConstants& k,
                           double* terms, double* raster_sum) {
  return WindowTermsT<uint32_t, uint64_t>(rows, column_weight, row_weight, n, k, terms, raster_sum);
}
ssim::int128 WindowTerms16(const TapRows<uint64_t>& rows, const uint32_t* column_weight,
                           uint32_t row_weight, size_t n, const ssim::TermConstants& k,
                           double* terms, double* raster_sum) {
  return WindowTermsT<uint64_t, uint64_t>(rows, column_weight, row_weight, n, k, terms, raster_sum);
}

}  // namespace exactvq::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::cpu {

HWY_EXPORT(WindowTerms8);
HWY_EXPORT(WindowTerms12);
HWY_EXPORT(WindowTerms16);

ssim::int128 window_terms(const TapRows<uint32_t>& rows, const uint32_t* column_weight,
                          uint32_t row_weight, size_t n, const ssim::TermConstants& k,
                          double* terms, double* raster_sum) {
  return HWY_DYNAMIC_DISPATCH(WindowTerms8)(rows, column_weight, row_weight, n, k, terms,
                                            raster_sum);
}
ssim::int128 window_terms_widening(const TapRows<uint32_t>& rows, const uint32_t* column_weight,
                                   uint32_t row_weight, size_t n, const ssim::TermConstants& k,
                                   double* terms, double* raster_sum) {
  return HWY_DYNAMIC_DISPATCH(WindowTerms12)(rows, column_weight, row_weight, n, k, terms,
                                             raster_sum);
}
ssim::int128 window_terms(const TapRows<uint64_t>& rows, const uint32_t* column_weight,
                          uint32_t row_weight, size_t n, const ssim::TermConstants& k,
                          double* terms, double* raster_sum) {
  return HWY_DYNAMIC_DISPATCH(WindowTerms16)(rows, column_weight, row_weight, n, k, terms,
                                             raster_sum);
}

}  // namespace exactvq::cpu
#endif  // HWY_ONCE
