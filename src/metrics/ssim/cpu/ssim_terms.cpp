// The binary64 term of spec/ssim.md as a Highway kernel: one lane per window,
// every operation the spec's, in the spec's order (Mul then Add: no MulAdd, and
// -ffp-contract=off keeps the compiler from fusing them either); stored, or
// summed into the `exact` sum as formed.
#include "metrics/ssim/cpu/ssim_kernels.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/ssim/cpu/ssim_terms.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "metrics/ssim/cpu/term_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR
// Calls sink(i, term, repeated) for the terms of lanes [i, i + Lanes) of one
// window row, i from 0 in steps of Lanes while a whole vector fits, then once
// for the last Lanes lanes (overlapping: its first `repeated` lanes were
// handed over already) when n >= Lanes. Returns the lanes handed over: n, or
// 0 for a row narrower than a vector.
template <typename Wide, class DF, class Sink>
HWY_INLINE size_t ForEachTermVector(DF df, WindowRow<Wide> win, const uint32_t* column_weight,
                                    uint32_t row_weight, size_t n, const ssim::TermConstants& k,
                                    Sink&& sink) {
  const hn::RebindToUnsigned<decltype(df)> du64;
  const size_t lanes = hn::Lanes(df);
  if (n < lanes) return 0;
  // 32-bit window moments mean 8-bit samples: mux, muy < 2^24 convert signed.
  constexpr bool kSmallMu = sizeof(Wide) == 4;
  auto load_wide = [&](const Wide* p) {
    if constexpr (sizeof(Wide) == 4)
      return LoadU32ToDouble<false>(df, p);
    else
      return ExactToDouble(df, hn::LoadU(du64, p));
  };
  const InteriorColumns interior(column_weight, row_weight, n, k);
  const auto wd_fixed = hn::Set(df, interior.wd);
  const auto c1_fixed = hn::Set(df, interior.c1), c2_fixed = hn::Set(df, interior.c2);
  const auto row_wd = hn::Set(df, double(row_weight));
  auto vector_at = [&](size_t i, size_t repeated) {
    const auto mux = LoadU32ToDouble<kSmallMu>(df, win.mux + i);
    const auto muy = LoadU32ToDouble<kSmallMu>(df, win.muy + i);
    const auto x2 = load_wide(win.x2 + i), xy = load_wide(win.xy + i), y2 = load_wide(win.y2 + i);
    if (interior.holds(i, lanes)) {
      sink(i, TermLanesFixedWeight(df, wd_fixed, c1_fixed, c2_fixed, mux, muy, x2, xy, y2),
           repeated);
    } else {
      // (double)(column_weight * row_weight): the product is below 2^17, so exact.
      const auto wd = hn::Mul(LoadU32ToDouble<true>(df, column_weight + i), row_wd);
      sink(i, TermLanes(df, wd, mux, muy, x2, xy, y2, k), repeated);
    }
  };
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) vector_at(i, 0);
  if (i < n) vector_at(n - lanes, i - (n - lanes));
  return n;
}
#endif

template <typename Wide>
void Terms(WindowRow<Wide> win, const uint32_t* column_weight, uint32_t row_weight, size_t n,
           const ssim::TermConstants& k, double* HWY_RESTRICT out) {
  size_t i = 0;
#if HWY_TARGET != HWY_SCALAR  // one lane: the per-pixel loop below does it all
  const hn::ScalableTag<double> df;
  // The overlapping last vector rewrites the same values: each lane's term
  // depends on its own window alone.
  i = ForEachTermVector(df, win, column_weight, row_weight, n, k,
                        [&](size_t at, auto term, size_t) { hn::StoreU(term, df, out + at); });
#endif
  for (; i < n; ++i) {
    const ssim::Moments m{win.mux[i], win.muy[i], win.x2[i],
                          win.xy[i],  win.y2[i],  uint64_t{column_weight[i]} * row_weight};
    out[i] = ssim::ssim_term(m, k);
  }
}

// The `exact` sum of the terms of `rows` window rows of the same row weight,
// each rounded to the 2^-64 fixed point as it is formed (term_lanes-inl.h's
// FixedSumAdd), none stored: the sum's work overlaps the divisions.
template <typename Wide>
ssim::int128 TermsSum(const WindowRow<Wide>* rows, int row_count, const uint32_t* column_weight,
                      uint32_t row_weight, size_t n, const ssim::TermConstants& k) {
  ssim::int128 sum = 0;
  size_t done = 0;  // lanes of each row summed by vectors
#if HWY_TARGET != HWY_SCALAR
  const hn::ScalableTag<double> df;
  auto fast_a = hn::Zero(hn::RebindToUnsigned<decltype(df)>()), fast_b = fast_a;
  auto lo = hn::Zero(hn::RebindToSigned<decltype(df)>()), mid = lo, hi = lo;
  FixedSumCounts counts;
  for (int r = 0; r < row_count; ++r)
    done = ForEachTermVector(df, rows[r], column_weight, row_weight, n, k,
                             [&](size_t, auto term, size_t repeated) {
                               // Lanes summed already count as +0, which adds nothing.
                               if (repeated)
                                 term = hn::IfThenZeroElse(hn::FirstN(df, repeated), term);
                               FixedSumAdd(df, term, fast_a, fast_b, lo, mid, hi, counts);
                             });
  sum = FixedSumTotal(df, fast_a, fast_b, lo, mid, hi, counts);
#endif
  for (int r = 0; r < row_count; ++r) {
    const WindowRow<Wide>& win = rows[r];
    for (size_t i = done; i < n; ++i) {
      const ssim::Moments m{win.mux[i], win.muy[i], win.x2[i],
                            win.xy[i],  win.y2[i],  uint64_t{column_weight[i]} * row_weight};
      sum += ssim::to_fixed64(ssim::ssim_term(m, k));
    }
  }
  return sum;
}

ssim::int128 TermsSum32(const WindowRow<uint32_t>* rows, int row_count,
                        const uint32_t* column_weight, uint32_t row_weight, size_t n,
                        const ssim::TermConstants& k) {
  return TermsSum(rows, row_count, column_weight, row_weight, n, k);
}
ssim::int128 TermsSum64(const WindowRow<uint64_t>* rows, int row_count,
                        const uint32_t* column_weight, uint32_t row_weight, size_t n,
                        const ssim::TermConstants& k) {
  return TermsSum(rows, row_count, column_weight, row_weight, n, k);
}

void Terms32(WindowRow<uint32_t> win, const uint32_t* column_weight, uint32_t row_weight, size_t n,
             const ssim::TermConstants& k, double* out) {
  Terms(win, column_weight, row_weight, n, k, out);
}
void Terms64(WindowRow<uint64_t> win, const uint32_t* column_weight, uint32_t row_weight, size_t n,
             const ssim::TermConstants& k, double* out) {
  Terms(win, column_weight, row_weight, n, k, out);
}

}  // namespace exactvq::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::cpu {

HWY_EXPORT(Terms32);
HWY_EXPORT(Terms64);
HWY_EXPORT(TermsSum32);
HWY_EXPORT(TermsSum64);

ssim::int128 terms_exact_sum(const WindowRow<uint32_t>* rows, int row_count,
                             const uint32_t* column_weight, uint32_t row_weight, size_t n,
                             const ssim::TermConstants& k) {
  return HWY_DYNAMIC_DISPATCH(TermsSum32)(rows, row_count, column_weight, row_weight, n, k);
}
ssim::int128 terms_exact_sum(const WindowRow<uint64_t>* rows, int row_count,
                             const uint32_t* column_weight, uint32_t row_weight, size_t n,
                             const ssim::TermConstants& k) {
  return HWY_DYNAMIC_DISPATCH(TermsSum64)(rows, row_count, column_weight, row_weight, n, k);
}

void ssim_terms(WindowRow<uint32_t> window, const uint32_t* column_weight, uint32_t row_weight,
                size_t n, const ssim::TermConstants& k, double* out) {
  HWY_DYNAMIC_DISPATCH(Terms32)(window, column_weight, row_weight, n, k, out);
}
void ssim_terms(WindowRow<uint64_t> window, const uint32_t* column_weight, uint32_t row_weight,
                size_t n, const ssim::TermConstants& k, double* out) {
  HWY_DYNAMIC_DISPATCH(Terms64)(window, column_weight, row_weight, n, k, out);
}

}  // namespace exactvq::cpu
#endif  // HWY_ONCE
