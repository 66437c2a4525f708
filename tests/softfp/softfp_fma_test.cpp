// softfp_fma against the CPU's std::fma (IEEE fusedMultiplyAdd), bit for bit:
// seeded random operands over wide exponent ranges and over the ranges the
// pinned log2 meets (libm/log2_softfp.h: |r| < 2^-5 against its polynomial's
// constants), product-addend exponent gaps from 0 to past 128, and constructed
// hard cases (exact cancellation, the product's rounding error, ties made by
// the addend, ties broken by a tiny addend). Results std::fma gives as
// subnormals or infinities must come back invalid.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <fmt/format.h>

#include "softfp_test_util.h"

namespace exactvq::softfp_test {
namespace {

// Whether a binary64 result lies in softfp's range (zero or normal).
bool in_range(double v) { return v == 0.0 || (std::isnormal(v)); }

class FmaChecker : public Compare {
 public:
  using Compare::Compare;
  void fma(double a, double b, double c) {
    const double want = std::fma(a, b, c);
    const softfp got = softfp_fma(soft(a), soft(b), soft(c));
    // A zero from a non-zero product alone is an underflow (no operand here
    // sits where a product and a non-zero addend cancel below 2^-1074).
    const bool underflow = want == 0.0 && a != 0.0 && b != 0.0 && c == 0.0;
    if (in_range(want) && !underflow) {
      check(softfp_is_valid(got) && softfp_to_bits(got) == bits_of(want), [&] {
        return fmt::format("fma({:a}, {:a}, {:a}): want {:a}, got {:a}", a, b, c, want,
                           softfp_is_valid(got) ? native(got) : NAN);
      });
    } else {
      check(!softfp_is_valid(got), [&] {
        return fmt::format("fma({:a}, {:a}, {:a}) = {:a} is out of softfp's range, got valid {:a}",
                           a, b, c, want, native(got));
      });
    }
  }
};

class Gen {
 public:
  explicit Gen(uint64_t s) : rng_(s) {}
  int uniform(int lo, int hi) { return lo + int(rng_() % uint64_t(hi - lo + 1)); }
  double sign() { return rng_() % 2 ? -1.0 : 1.0; }
  // A random significand at 2^e (its top bit), random sign; sometimes few bits
  // (integers and short fractions meet in log2's table).
  double at(int e) {
    uint64_t sig = (rng_() >> 11) | (uint64_t{1} << 52);
    if (rng_() % 8 == 0) sig &= ~uint64_t{0} << uniform(1, 52);
    return sign() * std::ldexp(double(sig), e - 52);
  }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

TEST(SoftfpFma, RandomWideExponents) {
  PathsReached paths;
  FmaChecker cmp("fma random, exponents -300..300, every gap");
  Gen g(seed() + 71);
  const uint64_t n = random_pair_count();
  for (uint64_t i = 0; i < n; ++i) {
    const int ea = g.uniform(-300, 300), eb = g.uniform(-300, 300);
    const double a = g.at(ea), b = g.at(eb);
    // The addend near the product's exponent most of the time (cancellation,
    // gaps of 0 to 140 either way), anywhere otherwise.
    const int ep = ea + eb + int(g.rng()() % 2);
    const int ec = g.rng()() % 4 == 0 ? g.uniform(-600, 600) : ep + g.uniform(-140, 140);
    double c = g.at(std::max(-1000, std::min(1000, ec)));
    if (g.rng()() % 64 == 0) c = g.rng()() % 2 ? 0.0 : -0.0;
    cmp.fma(a, b, c);
  }
  paths.expect({SOFTFP_PATH_FMA_ZERO_ADDEND, SOFTFP_PATH_FMA_ADD, SOFTFP_PATH_FMA_SUBTRACT,
                SOFTFP_PATH_ROUND_UP, SOFTFP_PATH_ROUND_CARRY});
}

// What log2's steps fuse: r * C + D and C * r - t with |r| < 2^-5 and the
// constants of its tables and polynomials (magnitudes 2^-33 to 2^1), z * (1/c)
// - 1 with z and 1/c near 1, and products of r's powers with sums of them.
TEST(SoftfpFma, RandomLog2Ranges) {
  PathsReached paths;
  FmaChecker cmp("fma random, log2's ranges");
  Gen g(seed() + 72);
  const uint64_t n = random_pair_count();
  for (uint64_t i = 0; i < n; ++i) {
    const double r = g.at(g.uniform(-60, -5));
    switch (i % 4) {
      case 0:  // polynomial step: r * C + D
        cmp.fma(r, g.at(g.uniform(-4, 0)), g.at(g.uniform(-4, 0)));
        break;
      case 1: {  // the exact split: C * r - round(C * r), and r * lo + that
        const double c = g.at(g.uniform(-34, 0));
        const double t = c * r;
        cmp.fma(c, r, -t);
        cmp.fma(r, g.at(-33), std::fma(c, r, -t));
        break;
      }
      case 2: {  // z / c - 1 with z near c
        const double z = std::fabs(g.at(g.uniform(-1, 0)));
        const double inv = 1.0 / z * (1.0 + g.at(g.uniform(-12, -7)));
        cmp.fma(z, inv, -1.0);
        break;
      }
      default:  // r^2 p + lo, p * r^4 + q
        cmp.fma(r * r, g.at(g.uniform(-3, 0)), g.at(g.uniform(-70, 2)));
        break;
    }
  }
  paths.expect({SOFTFP_PATH_FMA_ADD, SOFTFP_PATH_FMA_SUBTRACT, SOFTFP_PATH_FMA_CANCEL_TO_ZERO});
}

// Constructed cases: exact cancellation (+0), the product's rounding error,
// ties made exactly by the addend (integers whose sum has 54 bits ending in
// 1), ties of the product broken either way by an addend far below, zeros
// with every sign, and results beyond the normal range.
TEST(SoftfpFma, HardCases) {
  PathsReached paths;
  FmaChecker cmp("fma constructed hard cases");
  Gen g(seed() + 73);
  const uint64_t n = random_pair_count() / 8;
  for (uint64_t i = 0; i < n; ++i) {
    const double a = g.at(g.uniform(-50, 50)), b = g.at(g.uniform(-50, 50));
    const double p = a * b;
    cmp.fma(a, b, -p);                       // the rounding error
    cmp.fma(a, b, -std::nextafter(p, 0.0));  // near-cancellation
    cmp.fma(a, b, -std::nextafter(p, INFINITY));
    // Integers of 27 bits: the product is exact with up to 54 bits.
    const uint64_t x = (g.rng()() >> 37) | (uint64_t{1} << 26) | 1;
    const uint64_t y = (g.rng()() >> 37) | (uint64_t{1} << 26) | 1;
    const uint64_t prod = x * y;  // < 2^54
    // T: 54 significant bits ending in 1, near prod: an exact tie.
    const uint64_t t =
        ((prod | (uint64_t{1} << 53)) & ~uint64_t{0xFFFF}) | 1 | ((g.rng()() & 0x7FFE));
    const int64_t cint = int64_t(t) - int64_t(prod);
    const int s = g.uniform(-40, 40);
    cmp.fma(std::ldexp(double(x), s), double(y), std::ldexp(double(cint), s));
    cmp.fma(-std::ldexp(double(x), s), double(y), -std::ldexp(double(cint), s));
    // The product itself a tie (54 bits ending in 1), the addend tiny either way.
    if (prod >> 53) {
      const double tiny = std::ldexp(1.0, g.uniform(-200, -1));
      cmp.fma(double(x), double(y), tiny);
      cmp.fma(double(x), double(y), -tiny);
      cmp.fma(double(x), double(y), 0.0);
    }
    cmp.fma(a, b, 0.0);
    cmp.fma(a, b, -0.0);
    cmp.fma(0.0, b, p);
    cmp.fma(-0.0, b, 0.0);
    cmp.fma(-0.0, b, -0.0);
    cmp.fma(a, 0.0, -0.0);
    cmp.fma(a, b, a * b * 0x1p-120);
    cmp.fma(a, -b, p * (1 + 0x1p-52));
  }
  // Beyond the range: subnormal and overflowing results.
  cmp.fma(0x1p-600, 0x1p-500, 0.0);
  cmp.fma(0x1p-511, 0x1p-511, 0x1p-1050);
  cmp.fma(0x1p600, 0x1p500, 0x1p1000);
  cmp.fma(0x1p-1000, 0x1.8p-22, -0x1p-1022);
  cmp.fma(1.5, 1.5, -2.25);
  cmp.fma(1.0, 1.0, -1.0);
  paths.expect({SOFTFP_PATH_FMA_ZERO_PRODUCT, SOFTFP_PATH_FMA_ZERO_ADDEND, SOFTFP_PATH_FMA_ADD,
                SOFTFP_PATH_FMA_SUBTRACT, SOFTFP_PATH_FMA_CANCEL_TO_ZERO, SOFTFP_PATH_ROUND_TIE});
}

// An invalid operand (a division by zero's result) makes the result invalid.
TEST(SoftfpFma, InvalidOperand) {
  const softfp bad = softfp_div(soft(1.0), soft(0.0));
  EXPECT_FALSE(softfp_is_valid(softfp_fma(bad, soft(1.0), soft(1.0))));
  EXPECT_FALSE(softfp_is_valid(softfp_fma(soft(1.0), bad, soft(1.0))));
  EXPECT_FALSE(softfp_is_valid(softfp_fma(soft(1.0), soft(1.0), bad)));
}

}  // namespace
}  // namespace exactvq::softfp_test
