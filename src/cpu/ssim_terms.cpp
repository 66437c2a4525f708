// The binary64 term of spec/ssim.md as a Highway kernel: one lane per window,
// every operation the spec's, in the spec's order (Mul then Add: no MulAdd, and
// -ffp-contract=off keeps the compiler from fusing them either).
#include "cpu/ssim_kernels.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/ssim_terms.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/term_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <typename Wide>
void Terms(WindowRow<Wide> win, const uint32_t* column_weight, uint32_t row_weight, size_t n,
           const ssim::TermConstants& k, double* HWY_RESTRICT out) {
  const hn::ScalableTag<double> df;
  const hn::RebindToUnsigned<decltype(df)> du64;
  const hn::Rebind<uint32_t, decltype(df)> du32;
  const size_t lanes = hn::Lanes(df);
  auto load32 = [&](const uint32_t* p) {
    return ExactToDouble(df, hn::PromoteTo(du64, hn::LoadU(du32, p)));
  };
  auto load_wide = [&](const Wide* p) {
    if constexpr (sizeof(Wide) == 4) return load32(p);
    else return ExactToDouble(df, hn::LoadU(du64, p));
  };
  const auto row_wd = hn::Set(df, double(row_weight));
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    // (double)(column_weight * row_weight): the product is below 2^17, so exact.
    const auto wd = hn::Mul(load32(column_weight + i), row_wd);
    hn::StoreU(TermLanes(df, wd, load32(win.mux + i), load32(win.muy + i), load_wide(win.x2 + i),
                         load_wide(win.xy + i), load_wide(win.y2 + i), k),
               df, out + i);
  }
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
