// The per-pixel term of definition.h in binary64 on the host: the definition's
// operation order with the binary64 operators (contraction into fused
// multiply-add is off on every target, so each is one rounded operation).
#pragma once

#include <cstdint>
#if __cplusplus >= 202002L
#include <bit>
#endif

#include "metrics/ssim/definition.h"

// The host's binary64 operations, for definition.h's macros.
#define EXACTVQ_DMUL(a, b) ((a) * (b))
#define EXACTVQ_DADD(a, b) ((a) + (b))
#define EXACTVQ_DSUB(a, b) ((a) - (b))
#define EXACTVQ_DDIV(a, b) ((a) / (b))

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

// Per-bit-depth constants: the window-free parts of c1 and c2.
struct TermConstants {
  double mm_k1;
  double mm_k2;
};

#if __cplusplus >= 202002L
static_assert(std::bit_cast<uint64_t>(0.01) == EXACTVQ_SSIM_P01_BITS &&
              std::bit_cast<uint64_t>(0.03) == EXACTVQ_SSIM_P03_BITS);
#endif

inline TermConstants term_constants(int bitdepth) {
  const double md = static_cast<double>((uint32_t{1} << bitdepth) - 1);
  TermConstants k;
  EXACTVQ_SSIM_CONSTANTS(EXACTVQ_DMUL, md, 0.01, 0.03, k.mm_k1, k.mm_k2);
  return k;
}

inline double ssim_term(const Moments& m, const TermConstants& k) {
  const double wd = static_cast<double>(m.w);
  double c1, c2, term;
  EXACTVQ_SSIM_WINDOW_CONSTANTS(EXACTVQ_DMUL, k.mm_k1, k.mm_k2, wd, c1, c2);
  const double mux = static_cast<double>(m.mux), muy = static_cast<double>(m.muy);
  const double x2 = static_cast<double>(m.x2), xy = static_cast<double>(m.xy);
  const double y2 = static_cast<double>(m.y2);
  EXACTVQ_SSIM_TERM(double, EXACTVQ_DMUL, EXACTVQ_DADD, EXACTVQ_DSUB, EXACTVQ_DDIV, 2.0, wd, c1, c2,
                    mux, muy, x2, xy, y2, term);
  return term;
}

}  // namespace exactvq::ssim
