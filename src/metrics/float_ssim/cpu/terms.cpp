// The per-pixel terms (the twin of the reference's terms) as a Highway
// kernel, one pixel a lane: the variances, covariance, denominators and the
// structure quotient in binary32 lanes; the square root (IEEE, correctly
// rounded), the luminance and contrast numerators and quotients in binary64
// lanes, each step the reference's, in its order, none fused. The branches
// (floors at zero, the kept covariance) are compares and selects on the same
// values. Columns past the last whole vector run the reference.
#include "metrics/float_ssim/cpu/float_ssim_simd.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/float_ssim/cpu/terms.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::float_ssim::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR
// One-lane vectors gain nothing over the reference: the reference is the kernel.
void Terms(const TermRow& in, int n, double* l, double* c, double* s) {
  kReferenceStages.terms(in, n, l, c, s);
}
#else

using D64 = hn::ScalableTag<double>;
using DF = hn::Rebind<float, D64>;  // binary32 lanes, as many as D64's
using VF = hn::Vec<DF>;

// libvmaf's MAX(0.0, v) in binary32: 0 where v < 0; a NaN or a -0 stays.
HWY_INLINE VF FloorAtZero(DF df, VF v) { return hn::IfThenZeroElse(hn::Lt(v, hn::Zero(df)), v); }

void Terms(const TermRow& in, int n, double* l, double* c, double* s) {
  const D64 d;
  const DF df;
  const int lanes = int(hn::Lanes(d));
  const SsimConstants k = ssim_constants();
  const VF c1 = hn::Set(df, k.c1), c2 = hn::Set(df, k.c2), c3 = hn::Set(df, k.c3),
           zero = hn::Zero(df);
  const auto c1d = hn::Set(d, double(k.c1)), c2d = hn::Set(d, double(k.c2)), two = hn::Set(d, 2.0);
  int x = 0;
  for (; x + lanes <= n; x += lanes) {
    const VF mu1 = hn::LoadU(df, in.mu_ref + x), mu2 = hn::LoadU(df, in.mu_cmp + x);
    const VF mu1_sq = hn::Mul(mu1, mu1), mu2_sq = hn::Mul(mu2, mu2);
    const VF var1 = FloorAtZero(df, hn::Sub(hn::LoadU(df, in.ref_sq + x), mu1_sq));
    const VF var2 = FloorAtZero(df, hn::Sub(hn::LoadU(df, in.cmp_sq + x), mu2_sq));
    const VF cov = hn::Sub(hn::LoadU(df, in.both + x), hn::Mul(mu1, mu2));
    const VF sd12 = hn::DemoteTo(df, hn::Sqrt(hn::PromoteTo(d, hn::Mul(var1, var2))));

    const VF lum_den = hn::Add(hn::Add(mu1_sq, mu2_sq), c1);
    const auto lum_num =
        hn::Add(hn::Mul(hn::Mul(two, hn::PromoteTo(d, mu1)), hn::PromoteTo(d, mu2)), c1d);
    hn::StoreU(hn::Div(lum_num, hn::PromoteTo(d, lum_den)), d, l + x);

    const VF con_den = hn::Add(hn::Add(var1, var2), c2);
    const auto con_num = hn::Add(hn::Mul(two, hn::PromoteTo(d, sd12)), c2d);
    hn::StoreU(hn::Div(con_num, hn::PromoteTo(d, con_den)), d, c + x);

    const VF cov_kept = hn::IfThenZeroElse(hn::And(hn::Lt(cov, zero), hn::Le(sd12, zero)), cov);
    hn::StoreU(hn::PromoteTo(d, hn::Div(hn::Add(cov_kept, c3), hn::Add(sd12, c3))), d, s + x);
  }
  if (x < n) {
    const TermRow rest{in.mu_ref + x, in.mu_cmp + x, in.ref_sq + x, in.cmp_sq + x, in.both + x};
    kReferenceStages.terms(rest, n - x, l + x, c + x, s + x);
  }
}

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace exactvq::float_ssim::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::float_ssim::cpu {

HWY_EXPORT(Terms);

void terms(const TermRow& in, int n, double* l, double* c, double* s) {
  HWY_DYNAMIC_DISPATCH(Terms)(in, n, l, c, s);
}

}  // namespace exactvq::float_ssim::cpu
#endif  // HWY_ONCE
