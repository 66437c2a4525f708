// The per-pixel SSIM term of spec/ssim.md in binary64, operation for operation.
//
// Every line below is one IEEE-754 operation rounded to nearest even; the build
// forbids contraction into fused multiply-add (-ffp-contract=off), so the
// compiler may not merge or reorder them. Change nothing here without changing
// every backend (and softfp/) in the same commit.
#pragma once

#include <cstdint>

namespace exactvq::ssim {

// The window's integer moments (vertical pass over horizontal sums).
struct Moments {
  uint64_t mux;  // < 2^32
  uint64_t muy;  // < 2^32
  uint64_t x2;   // < 2^48
  uint64_t xy;   // < 2^48
  uint64_t y2;   // < 2^48
  uint64_t w;    // <= 2^16
};

// Per-bit-depth constants: (Md * Md) * K1 and (Md * Md) * K2, the first two
// products of c1 and c2, which do not depend on the window.
struct TermConstants {
  double mm_k1;
  double mm_k2;
};

inline TermConstants term_constants(int bitdepth) {
  constexpr double kK1 = 0.01 * 0.01;  // the binary64 product of the two literals
  constexpr double kK2 = 0.03 * 0.03;
  const double md = static_cast<double>((uint32_t{1} << bitdepth) - 1);
  const double mm = md * md;  // exact: below 2^32
  return {mm * kK1, mm * kK2};
}

inline double ssim_term(const Moments& m, const TermConstants& k) {
  const double wd = static_cast<double>(m.w);
  const double c1 = (k.mm_k1 * wd) * wd;
  const double c2 = (k.mm_k2 * wd) * wd;
  const double mux = static_cast<double>(m.mux);
  const double muy = static_cast<double>(m.muy);
  const double mx2 = mux * mux;
  const double mxy = mux * muy;
  const double my2 = muy * muy;
  const double a = 2.0 * mxy + c1;
  const double b = c2 + 2.0 * (static_cast<double>(m.xy) * wd - mxy);
  const double c = (mx2 + my2) + c1;
  const double d =
      (((static_cast<double>(m.x2) * wd - mx2) + static_cast<double>(m.y2) * wd) - my2) + c2;
  return ((wd * a) * b) / (c * d);
}

}  // namespace exactvq::ssim
