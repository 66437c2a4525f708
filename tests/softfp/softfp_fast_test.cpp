// softfp's fast path (softfp_term_fast and its helpers) against native binary64,
// bit for bit. The helpers first, TestFloat's way: seeded random operands, then
// constructed ones whose rounding is a tie, is decided by the last bit alone, or
// carries into the next power of two. Then the whole term on the moments of
// seeded random 9x9 windows (noise, flat, smooth, dark, identical, inverted,
// extremes, alternating) at 8 bits and at every other depth, and constructed
// windows (zero covariance, zero variance). Each test fails unless it reached
// the rounding paths it is about (softfp_test_util.h counts them).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "softfp_test_util.h"
#include "metrics/ssim/fixed_point.h"
#include "metrics/ssim/taps.h"
#include "metrics/ssim/term.h"

namespace exactvq::softfp_test {
namespace {

// ---- A, C, D: an integer plus a constant's fraction -------------------------

// i + c in binary64 against softfp_fast_integer_plus_fraction, for an integer
// i < 2^53 and c = sig * 2^-f, as the term forms A, C and D; where the integer
// part j is below 2^52, also against softfp_fast_integer_plus_addend (the
// devices' table form), counted in `addend`.
void check_integer_plus_fraction(Compare& cmp, uint64_t i, uint64_t sig, int f,
                                 Compare* addend = nullptr) {
  const double c = std::ldexp(static_cast<double>(sig), -f);
  const double want = static_cast<double>(i) + c;
  const uint64_t j = i + (sig >> f);
  const uint32_t frac2 = static_cast<uint32_t>(sig & ((uint64_t{1} << f) - 1)) << 1;
  const softfp got = softfp_fast_integer_plus_fraction(j, frac2, f);
  cmp.check(softfp_to_bits(got) == bits_of(want),
            [&] { return fmt::format("{} + {:a}: want {:a}, got {:a}", i, c, want, native(got)); });
  if (addend && j < (uint64_t{1} << 52)) {
    const uint32_t k = softfp_fast_shift_of(j);
    const softfp table = softfp_fast_normalize(
        softfp_fast_integer_plus_addend(j, k, softfp_fast_addend(frac2, f, k)));
    addend->check(softfp_to_bits(table) == bits_of(want), [&] {
      return fmt::format("{} + {:a} (addend, k {}): want {:a}, got {:a}", i, c, k, want,
                         native(table));
    });
  }
}

TEST(SoftfpFast, IntegerPlusFraction) {
  const PathsReached reached;
  Compare cmp("fast integer + fraction");
  std::mt19937_64 rng(seed());
  const uint64_t n = random_pair_count() / 10;
  Compare addend("fast integer + fraction, table addend");
  for (uint64_t t = 0; t < n; ++t) {
    const int f = 1 + int(rng() % 20);
    const int bits = int(rng() % 54);  // i below 2^bits, bits <= 53
    const uint64_t i = bits == 0 ? 0 : rng() >> (64 - bits);
    check_integer_plus_fraction(cmp, i, random_significand(rng), f, &addend);
  }
  // Ties: a fraction of exactly 1/2 with the result's unit at 1, and an exact
  // integer that is odd with the unit at 2; the same plus the lowest bit (the
  // sticky bit alone decides). Carries: 2^m - 2^-f, every bit one.
  for (int f = 1; f <= 20; ++f) {
    const uint64_t half = uint64_t{1} << (f - 1);
    for (int r = 0; r < 200; ++r) {
      const uint64_t high = (uint64_t{1} << 52) | (rng() & ((uint64_t{1} << 52) - 1));  // top at 52
      const uint64_t sig_half = ((random_significand(rng) >> f) << f) | half;
      check_integer_plus_fraction(cmp, high - (sig_half >> f), sig_half, f);
      check_integer_plus_fraction(cmp, high - (sig_half >> f), sig_half | 1, f);
      // j in [2^53, 2^53 + c's integer part), so that i = j - c's integer part < 2^53.
      const uint64_t sig_int = (random_significand(rng) >> f) << f;
      const uint64_t odd53 = ((uint64_t{1} << 53) + rng() % (sig_int >> f)) | 1;
      check_integer_plus_fraction(cmp, odd53 - (sig_int >> f) - 1, sig_int, f);  // even: exact
      check_integer_plus_fraction(cmp, odd53 - (sig_int >> f), sig_int, f);      // odd: a tie
      check_integer_plus_fraction(cmp, odd53 - (sig_int >> f), sig_int | 1, f);  // the last bit
    }
    const uint64_t ones = (uint64_t{1} << 53) - 1;  // c = 2^(53-f) - 2^-f
    for (int m = 54 - f; m <= 53; ++m)
      check_integer_plus_fraction(cmp, (uint64_t{1} << m) - 1 - (ones >> f), ones, f);
  }
  reached.expect({SOFTFP_PATH_FAST_SUM_UP, SOFTFP_PATH_FAST_SUM_TIE, SOFTFP_PATH_FAST_SUM_CARRY});
}

// The table form at every shift k it serves (2..f+1), on constructed
// fractions: a tie at k (the fraction's bits below the kept ones exactly one
// half, either parity), and the carry (j all ones, a fraction of all ones).
TEST(SoftfpFast, IntegerPlusAddendTiesAndCarries) {
  Compare cmp("fast integer + fraction, table addend, constructed");
  std::mt19937_64 rng(seed() + 7);
  int ties = 0, carries = 0;
  for (int f = 1; f <= 20; ++f)
    for (int k = 2; k <= f + 1; ++k)
      for (int r = 0; r < 64; ++r) {
        const uint64_t f_mask = (uint64_t{1} << f) - 1;
        uint64_t frac = rng() & f_mask;
        if (k <= f) {  // bits below position f - k + 1 exactly one half
          frac = ((frac >> (f - k + 1)) << (f - k + 1)) | (uint64_t{1} << (f - k));
          ++ties;
        }
        const uint64_t sig = ((random_significand(rng) >> f) << f) | frac;
        const uint64_t j = (uint64_t{1} << (53 - k)) | (rng() & ((uint64_t{1} << (53 - k)) - 1));
        if (j >= (sig >> f) && j >= (uint64_t{1} << 32))
          check_integer_plus_fraction(cmp, j - (sig >> f), sig, f, &cmp);
        const uint64_t ones = ((random_significand(rng) >> f) << f) | f_mask;
        const uint64_t all = (uint64_t{1} << (54 - k)) - 1;
        if (k <= f && all >= (ones >> f) && all >= (uint64_t{1} << 32)) {
          check_integer_plus_fraction(cmp, all - (ones >> f), ones, f, &cmp);
          ++carries;
        }
      }
  EXPECT_GT(ties, 1000);
  EXPECT_GT(carries, 1000);
}

// ---- B in the table form: a signed integer plus a fraction -------------------

// c + 2 cov in binary64 (c = sig * 2^-f, as B = c2 + 2 * cov) against
// softfp_fast_signed_plus_fraction, whose integer jb = 2 cov + c's integer part
// has j (jb, or ~jb when negative) in [2^32, 2^52).
void check_signed_plus_fraction(Compare& cmp, uint64_t jb, uint64_t sig, int f) {
  const double c = std::ldexp(static_cast<double>(sig), -f);
  const auto two_cov = static_cast<int64_t>(jb - (sig >> f));
  const double want = c + static_cast<double>(two_cov);
  const uint32_t frac2 = static_cast<uint32_t>(sig & ((uint64_t{1} << f) - 1)) << 1;
  const softfp got = softfp_fast_normalize(softfp_fast_signed_plus_fraction(jb, frac2, f));
  cmp.check(softfp_to_bits(got) == bits_of(want), [&] {
    return fmt::format("{:a} + {}: want {:a}, got {:a}", c, two_cov, want, native(got));
  });
}

// jb from j in [2^32, 2^52) and a sign.
uint64_t signed_integer(uint64_t j, bool negative) { return negative ? ~j : j; }

TEST(SoftfpFast, SignedPlusFraction) {
  Compare cmp("fast signed integer + fraction (B's table form)");
  std::mt19937_64 rng(seed() + 8);
  const uint64_t n = random_pair_count() / 10;
  int negatives = 0;
  for (uint64_t t = 0; t < n; ++t) {
    const int f = 1 + int(rng() % 20);
    const int top = 32 + int(rng() % 20);  // j's top bit, 32..51
    const uint64_t j = (uint64_t{1} << top) | (rng() & ((uint64_t{1} << top) - 1));
    const bool negative = rng() % 2;
    negatives += negative;
    check_signed_plus_fraction(cmp, signed_integer(j, negative), random_significand(rng), f);
  }
  EXPECT_GT(negatives, int(n / 4));
  // At every k = 53 - top(j) in [2, 21] (the exact ones, k > f + 1, included),
  // both signs: ties (the fraction's, or its complement's, bits below the kept
  // ones exactly one half: the same bits), the last bit deciding, and carries
  // (j all ones; the fraction, or its complement, all ones).
  int ties = 0, carries = 0;
  for (int f = 1; f <= 20; ++f)
    for (int k = 2; k <= 21; ++k)
      for (int r = 0; r < 32; ++r)
        for (const bool negative : {false, true}) {
          const uint64_t f_mask = (uint64_t{1} << f) - 1;
          const uint64_t high = (random_significand(rng) >> f) << f;
          const uint64_t j = (uint64_t{1} << (53 - k)) | (rng() & ((uint64_t{1} << (53 - k)) - 1));
          uint64_t frac = rng() & f_mask;
          if (k <= f) {
            frac = ((frac >> (f - k + 1)) << (f - k + 1)) | (uint64_t{1} << (f - k));
            ++ties;
            check_signed_plus_fraction(cmp, signed_integer(j, negative), high | frac, f);
            check_signed_plus_fraction(cmp, signed_integer(j, negative), high | (frac ^ 1), f);
          } else {
            check_signed_plus_fraction(cmp, signed_integer(j, negative), high | frac, f);
          }
          if (k <= f) {
            const uint64_t all = (uint64_t{1} << (54 - k)) - 1;
            check_signed_plus_fraction(cmp, signed_integer(all, negative),
                                       high | (negative ? 1 : f_mask), f);
            ++carries;
          }
        }
  EXPECT_GT(ties, 5000);
  EXPECT_GT(carries, 5000);
  // A zero fraction (c an integer; its complement is 1): exact, both signs, and
  // |jb| a power of two, whose significand is 2^53 before normalising.
  for (int top = 33; top <= 51; ++top) {
    const uint64_t power = uint64_t{1} << top;
    for (const uint64_t jb : {power, ~power + 1, power - 1, ~(power - 1) + 1, ~power})
      check_signed_plus_fraction(cmp, jb, uint64_t{1} << 52, 7);
  }
}

// ---- B: a 64-bit fixed point -------------------------------------------------

void check_fixed_point(Compare& cmp, uint64_t m, int f, int neg) {
  const double want = (neg ? -1.0 : 1.0) * std::ldexp(static_cast<double>(m), -f);  // one rounding
  const softfp got = softfp_fast_fixed_point(m, f, neg);
  cmp.check(softfp_to_bits(got) == bits_of(want),
            [&] { return fmt::format("{} / 2^{}: want {:a}, got {:a}", m, f, want, native(got)); });
}

TEST(SoftfpFast, FixedPoint) {
  const PathsReached reached;
  Compare cmp("fast 64-bit fixed point");
  std::mt19937_64 rng(seed() + 1);
  const uint64_t n = random_pair_count() / 10;
  for (uint64_t t = 0; t < n; ++t) {
    const int bits = 1 + int(rng() % 64);
    const uint64_t m = (rng() >> (64 - bits)) | (uint64_t{1} << (bits - 1));
    check_fixed_point(cmp, m, 1 + int(rng() % 20), int(rng() % 2));
  }
  // Ties at every rounding position (1 to 11 bits dropped), the same with the
  // lowest bit set, and all ones (rounds up to the next power of two).
  for (int dropped = 1; dropped <= 11; ++dropped)
    for (int r = 0; r < 100; ++r) {
      const uint64_t kept = random_significand(rng);
      const uint64_t tie = (kept << dropped) | (uint64_t{1} << (dropped - 1));
      check_fixed_point(cmp, tie, 15, 0);
      check_fixed_point(cmp, tie | 1, 15, 1);
      check_fixed_point(cmp, dropped == 11 ? ~uint64_t{0} : (uint64_t{1} << (53 + dropped)) - 1, 15,
                        0);
    }
  reached.expect({SOFTFP_PATH_FAST_B_UP, SOFTFP_PATH_FAST_B_TIE, SOFTFP_PATH_FAST_B_CARRY});
}

// ---- the products and the quotient ------------------------------------------

double from_sig(uint64_t sig, int e) { return std::ldexp(static_cast<double>(sig), e); }

// a * b (op '*') or a / b (op '/') through softfp_fast_mul or softfp_fast_div
// against native binary64.
void check_fast(Compare& cmp, char op, double a, double b) {
  const double want = op == '*' ? a * b : a / b;
  const softfp got =
      op == '*' ? softfp_fast_mul(soft(a), soft(b)) : softfp_fast_div(soft(a), soft(b));
  cmp.check(softfp_to_bits(got) == bits_of(want), [&] {
    return fmt::format("{:a} {} {:a}: want {:a}, got {:a}", a, op, b, want, native(got));
  });
}
void check_mul(Compare& cmp, double a, double b) { check_fast(cmp, '*', a, b); }
void check_div(Compare& cmp, double a, double b) { check_fast(cmp, '/', a, b); }

// A random operand, a random significand times 2^[-60, 40); negative half the
// time with `either_sign`.
double random_operand(std::mt19937_64& rng, bool either_sign) {
  const double sign = either_sign && rng() % 2 ? -1 : 1;
  const uint64_t sig = random_significand(rng);
  return sign * from_sig(sig, int(rng() % 100) - 60);
}

// The inverse of an odd x modulo 2^64 (Newton: each step doubles the bits).
uint64_t inverse_odd(uint64_t x) {
  uint64_t y = x;
  for (int i = 0; i < 6; ++i) y *= 2 - x * y;
  return y;
}

TEST(SoftfpFast, Multiply) {
  const PathsReached reached;
  Compare cmp("fast multiply");
  std::mt19937_64 rng(seed() + 2);
  const uint64_t n = random_pair_count();
  for (uint64_t t = 0; t < n; ++t) {
    const double a = random_operand(rng, true);
    check_mul(cmp, a, random_operand(rng, false));
  }
  // An operand with the significand 2^53 (an unnormalised carry), beside any
  // other operand and beside another such.
  Compare wide("fast multiply, a significand of 2^53");
  for (int r = 0; r < 100000; ++r) {
    const int e = int(rng() % 100) - 60;
    const softfp a = softfp_make(uint64_t{1} << 53, e, int(rng() % 2));
    const double b = r % 1000 == 0 ? from_sig(uint64_t{1} << 52, int(rng() % 20) - 10)
                                   : random_operand(rng, true);
    const softfp bs =
        r % 1000 == 1 ? softfp_make(uint64_t{1} << 53, int(rng() % 20) - 10, 0) : soft(b);
    const double want = std::ldexp(a.neg ? -1.0 : 1.0, 53 + e) * native(softfp_fast_normalize(bs));
    const softfp got = softfp_fast_mul(a, bs);
    wide.check(softfp_to_bits(got) == bits_of(want), [&] {
      return fmt::format("2^{} * {:a}: want {:a}, got {:a}", 53 + e,
                         native(softfp_fast_normalize(bs)), want, native(got));
    });
  }
  const uint64_t mask52 = (uint64_t{1} << 52) - 1;
  for (int r = 0; r < 100000; ++r) {
    const uint64_t a = random_significand(rng) | 1;
    // Ties: the product's bits below bit 52 are exactly 2^51 (b = 2^51 * odd /
    // a modulo 2^52, then lifted into [2^52, 2^53)); the rounding position is bit
    // 52 when the product is below 2^105, bit 53 (and the tie is a sticky case) above.
    const uint64_t b_tie = ((((uint64_t{1} << 51) * inverse_odd(a)) & mask52) | SOFTFP_HIDDEN);
    check_mul(cmp, from_sig(a, -52), from_sig(b_tie, -52));
    // The same plus 1 in the product's lowest bit: the sticky bit alone decides.
    const uint64_t b_last = ((((uint64_t{1} << 51) + 1) * inverse_odd(a)) & mask52) | SOFTFP_HIDDEN;
    check_mul(cmp, from_sig(a, -52), from_sig(b_last, -52));
    // Carries: b = floor((2^105 - 1) / a) puts the product within a of 2^105,
    // within half a unit (2^51) about half the time. (A product of two
    // significands is at most (2^53 - 1)^2 < 2^106 - 2^52: it never rounds up to 2^106.)
    const uint64_t b_carry104 =
        static_cast<uint64_t>(((static_cast<ssim::uint128>(1) << 105) - 1) / a);
    if (b_carry104 >= SOFTFP_HIDDEN) check_mul(cmp, from_sig(a, 3), -from_sig(b_carry104, -9));
  }
  reached.expect({SOFTFP_PATH_FAST_MUL_UP, SOFTFP_PATH_FAST_MUL_TIE, SOFTFP_PATH_FAST_MUL_CARRY});
}

TEST(SoftfpFast, Divide) {
  const PathsReached reached;
  Compare cmp("fast divide");
  std::mt19937_64 rng(seed() + 3);
  const uint64_t n = random_pair_count();
  for (uint64_t t = 0; t < n; ++t) {
    const double a = random_operand(rng, true);
    check_div(cmp, a, random_operand(rng, false));
  }
  const uint64_t mask53 = (uint64_t{1} << 53) - 1;
  const uint64_t top = uint64_t{1} << 53;
  // Divisors at the reciprocal's ends (y's top 32 bits at 2^31 and 2^32 - 1).
  for (uint64_t y : {SOFTFP_HIDDEN, SOFTFP_HIDDEN + 1, SOFTFP_HIDDEN + (uint64_t{1} << 21) - 1,
                     top - 1, top - (uint64_t{1} << 21), top - (uint64_t{1} << 21) - 1})
    for (uint64_t x : {SOFTFP_HIDDEN, SOFTFP_HIDDEN + 1, y, y - 1, y + 1, top - 1, top - 2})
      if (x >= SOFTFP_HIDDEN && x < top && y >= SOFTFP_HIDDEN)
        check_div(cmp, from_sig(x, 0), from_sig(y, 0));
  for (int r = 0; r < 100000; ++r) {
    const uint64_t y = random_significand(rng) | 1;
    // The quotient's rounding decided by a remainder of 1 alone: x * 2^53 =
    // q * y + 1 with q odd (the rounding bit set), q = -1 / y modulo 2^53.
    const uint64_t q = ((~inverse_odd(y) + 1) & mask53) | top;  // in [2^53, 2^54), odd
    const ssim::uint128 xq = static_cast<ssim::uint128>(q) * y + 1;
    const uint64_t x = static_cast<uint64_t>(xq >> 53);
    if ((xq & mask53) == 0 && x >= SOFTFP_HIDDEN && x < top)
      check_div(cmp, from_sig(x, 0), from_sig(y, 0));
    // A remainder of y - 1, the largest: q = (1 - y) / y = 1 / y - 1 modulo 2^53.
    const uint64_t q2 = ((inverse_odd(y) - 1) & mask53) | top;
    const ssim::uint128 xq2 = static_cast<ssim::uint128>(q2) * y + y - 1;
    {
      const uint64_t x2 = static_cast<uint64_t>(xq2 >> 53);
      if (x2 >= SOFTFP_HIDDEN && x2 < top) check_div(cmp, from_sig(x2, 0), from_sig(y, 0));
    }
    // Quotients just below 2 (x = 2y - 1 needs y > 2^52 and x < 2^53: no) and
    // just below 1: x = y - 1 (the dividend doubled).
    check_div(cmp, from_sig(y - 1, 0), from_sig(y, 0));
    check_div(cmp, from_sig(top - 1, 0), from_sig(SOFTFP_HIDDEN + (y & 0xFFFF), 0));
  }
  reached.expect({SOFTFP_PATH_FAST_DIV_UP, SOFTFP_PATH_FAST_DIV_DIGIT1_FIX,
                  SOFTFP_PATH_FAST_DIV_DIGIT2_FIX, SOFTFP_PATH_FAST_DIV_HALVED});
  EXPECT_EQ(softfp_path_hits[SOFTFP_PATH_FAST_DIV_CARRY], 0u) << "a quotient below 2 rounded to 2";
}

// ---- the whole term on windows ------------------------------------------------

// Moments of every 9x9 window wholly inside a w x h plane (w = 2^16 each).
void interior_moments(const std::vector<uint32_t>& ref, const std::vector<uint32_t>& dist, int w,
                      int h, std::vector<ssim::Moments>& out) {
  const int r = ssim::kRadius;
  out = brute_force_moments(w, h, r, w - r, r, h - r, [&](int p, int x, int y) -> uint64_t {
    return (p == 0 ? ref : dist)[size_t(y) * size_t(w) + size_t(x)];
  });
}

// A plane of one random kind: noise (full range or around a level), flat,
// smooth (a gradient plus a little noise), dark, extremes 0 and M, alternating
// columns or a checkerboard; a second plane related to it: identical,
// inverted, a little noise added, independent, flat.
class Planes {
 public:
  Planes(uint64_t s, int depth) : rng_(s), max_((uint32_t{1} << depth) - 1) {}

  void make(int w, int h, std::vector<uint32_t>& ref, std::vector<uint32_t>& dist) {
    ref.resize(size_t(w) * size_t(h));
    dist.resize(ref.size());
    content(w, h, ref);
    switch (rng_() % 6) {
      case 0:
        dist = ref;
        break;
      case 1:
        for (size_t i = 0; i < ref.size(); ++i) dist[i] = max_ - ref[i];
        break;
      case 2: {
        const uint32_t a = 1 + uint32_t(rng_() % 16);
        for (size_t i = 0; i < ref.size(); ++i) {
          const int64_t v = int64_t(ref[i]) + int64_t(rng_() % (2 * a + 1)) - int64_t(a);
          dist[i] = uint32_t(std::clamp<int64_t>(v, 0, max_));
        }
        break;
      }
      case 3:
        content(w, h, dist);
        break;
      case 4:
        std::fill(dist.begin(), dist.end(), level());
        break;
      default:
        for (size_t i = 0; i < ref.size(); ++i) dist[i] = max_ - ref[i] / 2;
        break;
    }
  }

 private:
  uint32_t level() { return uint32_t(rng_() % (uint64_t(max_) + 1)); }
  uint32_t around(uint32_t l, uint32_t a) {
    const int64_t v = int64_t(l) + int64_t(rng_() % (2 * uint64_t(a) + 1)) - int64_t(a);
    return uint32_t(std::clamp<int64_t>(v, 0, max_));
  }

  void content(int w, int h, std::vector<uint32_t>& p) {
    const uint32_t l = level(), l2 = level();
    const uint32_t a = uint32_t(rng_() % (uint64_t(max_) / 4 + 2));
    const int kind = int(rng_() % 8);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        uint32_t v;
        switch (kind) {
          case 0:
            v = level();
            break;
          case 1:
            v = around(l, a);
            break;
          case 2:
            v = l;
            break;
          case 3:
            v = around(uint32_t(uint64_t(max_) * uint64_t(x + y) / uint64_t(w + h)), 2);
            break;
          case 4:
            v = uint32_t(rng_() % 9);
            break;  // dark: A, C at their smallest
          case 5:
            v = rng_() % 2 ? max_ : 0;
            break;
          case 6:
            v = x % 2 ? l : l2;
            break;
          default:
            v = (x + y) % 2 ? max_ : 0;
            break;
        }
        p[size_t(y) * size_t(w) + size_t(x)] = v;
      }
  }

  std::mt19937_64 rng_;
  uint32_t max_;
};

// Compares softfp_term (and its fixed point) with ssim_term on every moment.
struct TermStats {
  uint64_t windows = 0, fast = 0;
};

void check_terms(Compare& cmp, const std::vector<ssim::Moments>& moments, int depth,
                 TermStats& stats) {
  const ssim::TermConstants k = ssim::term_constants(depth);
  const softfp_term_constants sk = softfp_make_term_constants(depth);
  for (const ssim::Moments& m : moments) {
    const softfp_moments sm{m.mux, m.muy, m.x2, m.xy, m.y2, m.w};
    const double want = ssim::ssim_term(m, k);
    const bool fast = softfp_term_fast_applies(sm, sk);
    const softfp got = softfp_term(sm, sk);
    ++stats.windows;
    stats.fast += fast;
    const ssim::int128 q = ssim::to_fixed64(want);
    const softfp_i128 sq = softfp_to_fixed64(got);
    cmp.check(softfp_is_valid(got) && softfp_to_bits(got) == bits_of(want) &&
                  static_cast<uint64_t>(q) == sq.lo && static_cast<uint64_t>(q >> 64) == sq.hi,
              [&] {
                return fmt::format(
                    "{}-bit mux={} muy={} x2={} xy={} y2={} ({}): want {:a}, got {:a}", depth,
                    m.mux, m.muy, m.x2, m.xy, m.y2, fast ? "fast" : "general", want, native(got));
              });
  }
}

// EXACTVQ_SOFTFP_PAIRS windows (10^7 by default) at 8 bits: all take the fast path.
TEST(SoftfpFast, RandomWindows8Bit) {
  const PathsReached reached;
  Compare cmp("fast term, random 8-bit windows");
  Planes planes(seed() + 4, 8);
  std::vector<uint32_t> ref, dist;
  std::vector<ssim::Moments> moments;
  TermStats stats;
  const uint64_t n = random_pair_count();
  while (stats.windows < n) {
    planes.make(72, 40, ref, dist);  // 64 x 32 windows
    interior_moments(ref, dist, 72, 40, moments);
    check_terms(cmp, moments, 8, stats);
  }
  EXPECT_EQ(stats.fast, stats.windows) << "an 8-bit window missed the fast path";
  std::printf("[ softfp   ] %llu 8-bit windows, %llu on the fast path\n",
              static_cast<unsigned long long>(stats.windows),
              static_cast<unsigned long long>(stats.fast));
  reached.expect({SOFTFP_PATH_TERM_FAST, SOFTFP_PATH_FAST_SUM_UP, SOFTFP_PATH_FAST_SUM_TIE,
                  SOFTFP_PATH_FAST_B_UP, SOFTFP_PATH_FAST_B_TIE, SOFTFP_PATH_FAST_MUL_UP,
                  SOFTFP_PATH_FAST_DIV_UP, SOFTFP_PATH_FAST_DIV_DIGIT1_FIX,
                  SOFTFP_PATH_FAST_DIV_DIGIT2_FIX, SOFTFP_PATH_FAST_DIV_HALVED});
}

// Every other depth: the fast path where it applies (every 9- and 10-bit
// window, dark windows above), the general path elsewhere, the same bits.
TEST(SoftfpFast, RandomWindowsOtherDepths) {
  const PathsReached reached;
  Compare cmp("term, random 9..16-bit windows");
  for (int depth = 9; depth <= 16; ++depth) {
    Planes planes(seed() + 5 + uint64_t(depth), depth);
    std::vector<uint32_t> ref, dist;
    std::vector<ssim::Moments> moments;
    TermStats stats;
    while (stats.windows < random_pair_count() / 40) {
      planes.make(72, 40, ref, dist);
      interior_moments(ref, dist, 72, 40, moments);
      check_terms(cmp, moments, depth, stats);
    }
    std::printf("[ softfp   ] %d-bit: %llu windows, %llu on the fast path\n", depth,
                static_cast<unsigned long long>(stats.windows),
                static_cast<unsigned long long>(stats.fast));
    if (depth <= 10) {  // every interior window of a real 9- or 10-bit frame is within its bounds
      EXPECT_EQ(stats.fast, stats.windows) << depth << "-bit: a window missed the fast path";
    }
  }
  reached.expect({SOFTFP_PATH_TERM_FAST, SOFTFP_PATH_TERM_GENERAL});
}

// Constructed windows: zero covariance (a flat reference), zero variance in
// one or both, equal flat windows (the term is w exactly), the extremes.
TEST(SoftfpFast, ConstructedWindows) {
  Compare cmp("fast term, constructed windows");
  TermStats stats;
  std::mt19937_64 rng(seed() + 6);
  for (int depth = 8; depth <= 10; ++depth) {
    const uint32_t max = (uint32_t{1} << depth) - 1;
    std::vector<uint32_t> ref(81), dist(81);
    std::vector<ssim::Moments> moments;
    for (int r = 0; r < 2000; ++r) {
      const uint32_t l = uint32_t(rng() % (max + 1)), l2 = uint32_t(rng() % (max + 1));
      for (int kind = 0; kind < 5; ++kind) {
        for (size_t i = 0; i < 81; ++i) {
          const uint32_t noise = uint32_t(rng() % (max + 1));
          switch (kind) {
            case 0:
              ref[i] = l;
              dist[i] = noise;
              break;  // covariance 0, var_x 0
            case 1:
              ref[i] = noise;
              dist[i] = l;
              break;  // covariance 0, var_y 0
            case 2:
              ref[i] = l;
              dist[i] = l2;
              break;  // both flat
            case 3:
              ref[i] = l;
              dist[i] = l;
              break;  // equal flat: term = w
            default:
              ref[i] = i % 2 ? max : 0;
              dist[i] = i % 3 ? 0 : max;
              break;
          }
        }
        interior_moments(ref, dist, 9, 9, moments);
        ASSERT_EQ(moments.size(), 1u);
        if (kind <= 1) {
          const ssim::Moments& m = moments[0];
          EXPECT_EQ(m.xy * m.w, m.mux * m.muy) << "covariance not zero";
        }
        check_terms(cmp, moments, depth, stats);
      }
    }
  }
  EXPECT_EQ(stats.fast, stats.windows) << "a constructed 8..10-bit window missed the fast path";
}

// The truncated windows' constants: for every weight a border leaves (column
// weight times row weight, from planes 1 to 12 samples across), c1 and c2 as
// binary64 forms them, against softfp_weight_constants' split where the fast
// path may use it; where c2 is an even integer (B = 0 possible), the per-window
// guard.
TEST(SoftfpFast, WeightConstants) {
  uint64_t compared = 0, fast = 0, even_c2 = 0;
  for (int depth = 8; depth <= 16; ++depth) {
    const ssim::TermConstants k = ssim::term_constants(depth);
    const softfp_term_constants sk = softfp_make_term_constants(depth);
    std::vector<uint32_t> weights;
    for (int size = 1; size <= 12; ++size)
      for (int pos = 0; pos < size; ++pos) weights.push_back(ssim::kept_weight(pos, size));
    std::sort(weights.begin(), weights.end());
    weights.erase(std::unique(weights.begin(), weights.end()), weights.end());
    for (uint32_t a : weights)
      for (uint32_t b : weights) {
        const uint64_t w = uint64_t{a} * b;
        if (w >= 65536) continue;
        const double wd = static_cast<double>(w);
        const double c1 = (k.mm_k1 * wd) * wd, c2 = (k.mm_k2 * wd) * wd;
        const softfp_term_constants kw = softfp_weight_constants(sk, w);
        ++compared;
        if (!kw.fast) continue;
        ++fast;
        const auto value = [](uint64_t integer, uint32_t frac2, int f) {
          return static_cast<double>(integer) + std::ldexp(static_cast<double>(frac2), -(f + 1));
        };
        EXPECT_EQ(bits_of(value(kw.c1_int, kw.c1_frac2, kw.c1_frac_bits)), bits_of(c1))
            << depth << " bits, w " << w;
        EXPECT_EQ(bits_of(value(kw.c2_int, kw.c2_frac2, kw.c2_frac_bits)), bits_of(c2))
            << depth << " bits, w " << w;
        even_c2 += std::fmod(c2, 2.0) == 0.0;
      }
  }
  std::printf(
      "[ softfp   ] %llu weights, %llu with fast-path constants, %llu of them with c2 an even "
      "integer\n",
      static_cast<unsigned long long>(compared), static_cast<unsigned long long>(fast),
      static_cast<unsigned long long>(even_c2));
  EXPECT_GT(fast, compared / 2);
  EXPECT_GT(even_c2, 0u) << "no weight tries softfp_term_fast_weight_applies's guard on B";
  // That guard: with c2 = 10 exactly, B = 2 cov + 10 is 0 at cov = -5 (w = 1,
  // mux = 5, muy = 1, xy = 0; D's integer part 0), and 2 at cov = -4 (xy = 1).
  softfp_term_constants kw = softfp_weight_constants(softfp_make_term_constants(8), 41472);
  ASSERT_TRUE(kw.fast);
  kw.c2_int = 10;
  kw.c2_frac2 = 0;
  EXPECT_FALSE(softfp_term_fast_weight_applies(softfp_moments{5, 1, 25, 0, 1, 1}, kw))
      << "B = 0 let through";
  EXPECT_TRUE(softfp_term_fast_weight_applies(softfp_moments{5, 1, 25, 1, 1, 1}, kw));
}

// Every truncated window (w < 2^16) of seeded random planes from 9x9 to 40x32
// and of tiny planes (1x1 to 8x8), at every depth, through softfp_term against
// the reference: the truncated windows' fast path where it applies (nearly
// every window at 8 to 10 bits; it declines a covariance near its extreme, and
// tiny planes' small weights), the general path elsewhere, the same bits.
TEST(SoftfpFast, TruncatedWindows) {
  const PathsReached reached;
  Compare cmp("term, truncated windows");
  std::mt19937_64 rng(seed() + 7);
  for (int depth = 8; depth <= 16; ++depth) {
    Planes planes(seed() + 30 + uint64_t(depth), depth);
    std::vector<uint32_t> ref, dist;
    TermStats stats;
    const uint64_t hits = softfp_path_hits[SOFTFP_PATH_TERM_FAST_WEIGHT];
    while (stats.windows < random_pair_count() / 50) {
      const bool tiny = rng() % 8 == 0;
      const int w = tiny ? 1 + int(rng() % 8) : 9 + int(rng() % 32);
      const int h = tiny ? 1 + int(rng() % 8) : 9 + int(rng() % 24);
      planes.make(w, h, ref, dist);
      std::vector<ssim::Moments> moments =
          brute_force_moments(w, h, 0, w, 0, h, [&](int p, int x, int y) -> uint64_t {
            return (p == 0 ? ref : dist)[size_t(y) * size_t(w) + size_t(x)];
          });
      std::erase_if(moments, [](const ssim::Moments& m) { return m.w >= 65536; });
      check_terms(cmp, moments, depth, stats);
    }
    const uint64_t weight_fast = softfp_path_hits[SOFTFP_PATH_TERM_FAST_WEIGHT] - hits;
    std::printf("[ softfp   ] %d-bit: %llu truncated windows, %llu on their fast path\n", depth,
                static_cast<unsigned long long>(stats.windows),
                static_cast<unsigned long long>(weight_fast));
    EXPECT_EQ(stats.fast, 0u) << "softfp_term_fast took a truncated window";
    if (depth <= 10) {
      EXPECT_GT(weight_fast, stats.windows * 9 / 10)
          << depth << "-bit: truncated windows missed their fast path";
    }
  }
  reached.expect({SOFTFP_PATH_TERM_FAST_WEIGHT, SOFTFP_PATH_TERM_GENERAL, SOFTFP_PATH_TERM_INTEGER,
                  SOFTFP_PATH_FAST_SUM_UP, SOFTFP_PATH_FAST_SUM_TIE, SOFTFP_PATH_FAST_B_UP,
                  SOFTFP_PATH_FAST_MUL_UP, SOFTFP_PATH_FAST_MUL_TIE, SOFTFP_PATH_FAST_DIV_UP,
                  SOFTFP_PATH_FAST_DIV_HALVED});
}

}  // namespace
}  // namespace exactvq::softfp_test
