// The binary64 term of spec/ssim.md as a Highway kernel: one lane per window,
// every operation the spec's, in the spec's order (Mul then Add: no MulAdd, and
// -ffp-contract=off keeps the compiler from fusing them either).
#include "metrics/ssim/cpu/ssim_kernels.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/ssim/cpu/ssim_terms.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "metrics/ssim/cpu/term_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <typename Wide>
void Terms(WindowRow<Wide> win, const uint32_t* column_weight, uint32_t row_weight, size_t n,
           const ssim::TermConstants& k, double* HWY_RESTRICT out) {
  size_t i = 0;
#if HWY_TARGET != HWY_SCALAR  // one lane: the per-pixel loop below does it all
  const hn::ScalableTag<double> df;
  const hn::RebindToUnsigned<decltype(df)> du64;
  const size_t lanes = hn::Lanes(df);
  // 32-bit window moments mean 8-bit samples: mux, muy < 2^24 convert signed.
  constexpr bool kSmallMu = sizeof(Wide) == 4;
  auto load_wide = [&](const Wide* p) {
    if constexpr (sizeof(Wide) == 4) return LoadU32ToDouble<false>(df, p);
    else return ExactToDouble(df, hn::LoadU(du64, p));
  };
  const InteriorColumns interior(column_weight, row_weight, n, k);
  const auto wd_fixed = hn::Set(df, interior.wd);
  const auto c1_fixed = hn::Set(df, interior.c1), c2_fixed = hn::Set(df, interior.c2);
  const auto row_wd = hn::Set(df, double(row_weight));
  auto vector_at = [&](size_t i) {
    const auto mux = LoadU32ToDouble<kSmallMu>(df, win.mux + i);
    const auto muy = LoadU32ToDouble<kSmallMu>(df, win.muy + i);
    const auto x2 = load_wide(win.x2 + i), xy = load_wide(win.xy + i), y2 = load_wide(win.y2 + i);
    if (interior.holds(i, lanes)) {
      hn::StoreU(TermLanesFixedWeight(df, wd_fixed, c1_fixed, c2_fixed, mux, muy, x2, xy, y2), df,
                 out + i);
    } else {
      // (double)(column_weight * row_weight): the product is below 2^17, so exact.
      const auto wd = hn::Mul(LoadU32ToDouble<true>(df, column_weight + i), row_wd);
      hn::StoreU(TermLanes(df, wd, mux, muy, x2, xy, y2, k), df, out + i);
    }
  };
  for (; i + lanes <= n; i += lanes) vector_at(i);
  // The tail by one more vector, overlapping: each lane's term depends on its
  // own window alone, so the overlap rewrites the same values.
  if (i < n && n >= lanes) {
    vector_at(n - lanes);
    i = n;
  }
#endif
  for (; i < n; ++i) {
    const ssim::Moments m{win.mux[i], win.muy[i], win.x2[i], win.xy[i], win.y2[i],
                          uint64_t{column_weight[i]} * row_weight};
    out[i] = ssim::ssim_term(m, k);
  }
}

void Terms32(WindowRow<uint32_t> win, const uint32_t* column_weight, uint32_t row_weight,
             size_t n, const ssim::TermConstants& k, double* out) {
  Terms(win, column_weight, row_weight, n, k, out);
}
void Terms64(WindowRow<uint64_t> win, const uint32_t* column_weight, uint32_t row_weight,
             size_t n, const ssim::TermConstants& k, double* out) {
  Terms(win, column_weight, row_weight, n, k, out);
}

}  // namespace exactvq::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::cpu {

HWY_EXPORT(Terms32);
HWY_EXPORT(Terms64);

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
