// Term sequences that stress the parallel raster-order sum (docs/spec/raster_sum.md): binade
// crossings up and down, exact halfway cases at both parities, sign changes, cancellation to
// zero, huge and tiny terms mixed, subnormals, equal terms, infinities and NaN, and
// SSIM-like terms. Each is made from a seed, for the host tests and the CUDA twin rows.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace exactvq::testing {

enum class TermKind {
  kSsimLike,      // 0.2 .. 1 mostly, some negative: the sum grows through ~20 binades
  kSymmetric,     // uniform in [-1, 1]: the sum wanders through 0 and changes sign
  kAllOnes,       // 1.0: exact powers of two at every binade edge
  kAllTenths,     // 0.1: every addition rounds
  kHalfUlpTies,   // 1.0, then multiples of 2^-53 around 1: halfway cases at both parities
  kBigTies,       // 2^53 - 4, then +-0.5, +-1.5: halfway cases of integer-spaced sums
  kDownward,      // 2^30, then negative terms: the sum falls through binades to 0 and below
  kCancelToZero,  // t, -t pairs, -0 and +0: exact zeros in the middle of the run
  kHugeTiny,      // 1e300 .. 1e-300 mixed, both signs
  kSubnormal,     // subnormal terms: the sum crosses 2^-1022 both ways and through 0
  kRandomBits,    // finite doubles with random exponents in a band
  kOverflow,      // 1e308s: the sum overflows to infinity, then -infinity makes NaN
  kNanInside,     // SSIM-like with a NaN in the middle
  kCount
};

inline const char* term_kind_name(TermKind k) {
  static const char* const names[] = {"ssim-like",     "symmetric", "all-ones",    "all-tenths",
                                      "half-ulp-ties", "big-ties",  "downward",    "cancel-to-zero",
                                      "huge-tiny",     "subnormal", "random-bits", "overflow",
                                      "nan-inside"};
  return names[int(k)];
}

inline double from_bits(uint64_t b) {
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

inline std::vector<double> term_sequence(TermKind kind, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> t(n);
  auto pick = [&](int k) { return int(rng() % uint64_t(k)); };
  for (size_t i = 0; i < n; ++i) {
    double v = 0;
    switch (kind) {
      case TermKind::kSsimLike:
        v = pick(50) == 0 ? -0.3 * unit(rng) : 0.2 + 0.8 * unit(rng);
        break;
      case TermKind::kSymmetric:
        v = 2.0 * unit(rng) - 1.0;
        break;
      case TermKind::kAllOnes:
        v = 1.0;
        break;
      case TermKind::kAllTenths:
        v = 0.1;
        break;
      case TermKind::kHalfUlpTies:
        v = i == 0 ? 1.0 : std::ldexp(double(pick(7) - 2), -53 + pick(3));
        break;
      case TermKind::kBigTies:
        v = i == 0 ? 9007199254740988.0 : (pick(2) ? 0.5 : 1.5) * (pick(3) == 0 ? -1.0 : 1.0);
        break;
      case TermKind::kDownward:
        v = i == 0 ? std::ldexp(1.0, 30) : -std::ldexp(unit(rng), 30 - int(i % 40));
        if (i % 97 == 5) v = std::ldexp(1.0, 20 - pick(40));
        break;
      case TermKind::kCancelToZero:
        if (i % 2 == 1)
          v = -t[i - 1];
        else
          v = pick(9) == 0 ? (pick(2) ? -0.0 : 0.0) : std::ldexp(unit(rng), pick(60) - 30);
        if (i % 1000 == 999) v = 0.125;
        break;
      case TermKind::kHugeTiny: {
        const double m = 1.0 + unit(rng);
        v = (pick(2) ? 1.0 : -1.0) * (pick(2) ? m * 1e300 : m * 1e-300);
        if (pick(5) == 0) v = m;
        break;
      }
      case TermKind::kSubnormal:
        v = from_bits(rng() & ((uint64_t{1} << 50) - 1)) * (pick(3) == 0 ? -1.0 : 1.0);
        if (i % 500 == 499) v = -from_bits(uint64_t{1} << 52) * double(pick(3));
        break;
      case TermKind::kRandomBits: {
        const uint64_t e = uint64_t(1023 - 40 + pick(80));
        v = from_bits((uint64_t(pick(2)) << 63) | (e << 52) | (rng() & ((uint64_t{1} << 52) - 1)));
        break;
      }
      case TermKind::kOverflow:
        v = i % 1000 == 500 ? -std::numeric_limits<double>::infinity() : (1.0 + unit(rng)) * 1e306;
        break;
      case TermKind::kNanInside:
        v = i == n / 2 ? std::numeric_limits<double>::quiet_NaN() : 0.2 + 0.8 * unit(rng);
        break;
      case TermKind::kCount:
        break;
    }
    t[i] = v;
  }
  return t;
}

}  // namespace exactvq::testing
