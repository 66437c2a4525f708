// Each softfp operation against the CPU's native binary64, bit for bit: seeded
// random operands over the ranges the term meets at 8, 10, 12 and 16 bits, and
// constructed hard cases. Every test also checks that it reached the paths it
// is about (softfp_test_util.h counts them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <random>

#include <fmt/format.h>

#include "softfp_test_util.h"
#include "metrics/ssim/fixed_point.h"

namespace exactvq::softfp_test {
namespace {

enum class Op { kAdd, kSub, kMul, kDiv };

const char* op_name(Op op) {
  switch (op) {
    case Op::kAdd:
      return "+";
    case Op::kSub:
      return "-";
    case Op::kMul:
      return "*";
    case Op::kDiv:
      return "/";
  }
  return "?";
}

double native_op(Op op, double a, double b) {
  switch (op) {
    case Op::kAdd:
      return a + b;
    case Op::kSub:
      return a - b;
    case Op::kMul:
      return a * b;
    case Op::kDiv:
      return a / b;
  }
  return 0;
}

softfp soft_op(Op op, softfp a, softfp b) {
  switch (op) {
    case Op::kAdd:
      return softfp_add(a, b);
    case Op::kSub:
      return softfp_sub(a, b);
    case Op::kMul:
      return softfp_mul(a, b);
    case Op::kDiv:
      return softfp_div(a, b);
  }
  return a;
}

// Compare with the four operations against native binary64.
class Checker : public Compare {
 public:
  using Compare::Compare;
  void op(Op op, double a, double b) {
    const double want = native_op(op, a, b);
    const softfp got = soft_op(op, soft(a), soft(b));
    check(softfp_is_valid(got) && softfp_to_bits(got) == bits_of(want), [&] {
      return fmt::format("{:a} {} {:a}: want {:a}, got {:a}", a, op_name(op), b, want, native(got));
    });
  }
};

// Operands as the term meets them at one bit depth: integers up to the
// products' 2^(2b+32), reals from 2^-40 up to past (w*A)*B's 2^(4b+98), powers
// of two (w = 2^16), zeros, and second operands near the first.
class Operands {
 public:
  Operands(uint64_t s, int depth) : rng_(s), depth_(depth) {}

  double any() {
    switch (rng_() % 16) {
      case 0:
      case 1:
      case 2:
      case 3:
      case 4:
        return integer();
      case 5:
        return std::ldexp(1.0, uniform(-40, 4 * depth_ + 100));
      case 6:
        return rng_() % 8 == 0 ? 0.0 : real();
      default:
        return real();
    }
  }

  double integer() {
    const int k = uniform(1, 2 * depth_ + 32);
    const uint64_t v = (rng_() >> (64 - k)) | (uint64_t{1} << (k - 1));
    return sign() * static_cast<double>(v);
  }

  double real() { return real_at(uniform(-40, 4 * depth_ + 100)); }

  // A random significand at 2^e (top bit), random sign.
  double real_at(int e) {
    const uint64_t sig = (rng_() >> 11) | (uint64_t{1} << 52);
    return sign() * std::ldexp(static_cast<double>(sig), e - 52);
  }

  // A second operand near `a`: a chosen exponent gap, sometimes a nearly equal
  // significand (cancellation), either sign.
  double near(double a) {
    static const int kGaps[] = {0, 0, 0, 1, 1, 2, 3, 11, 52, 53, 54, 55, 61, 63, 64, 70};
    if (a == 0.0) return any();
    int e;
    std::frexp(a, &e);
    const int gap = rng_() % 4 == 0 ? uniform(0, 80) : kGaps[rng_() % 16];
    const int target = rng_() % 2 ? e - 1 - gap : e - 1 + gap;
    if (rng_() % 3 == 0) {  // |a| moved by a few units in the last place, then scaled
      double v = std::fabs(a);
      const int steps = uniform(-3, 3);
      for (int i = 0; i < std::abs(steps); ++i) v = std::nextafter(v, steps > 0 ? INFINITY : 0.0);
      return sign() * std::ldexp(v, target - (e - 1));
    }
    return real_at(target);
  }

  int uniform(int lo, int hi) {
    return lo + static_cast<int>(rng_() % static_cast<uint64_t>(hi - lo + 1));
  }
  double sign() { return rng_() % 2 ? -1.0 : 1.0; }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
  int depth_;
};

constexpr int kDepths[] = {8, 10, 12, 16};

void random_pairs(Op op) {
  const uint64_t count = random_pair_count();
  Checker cmp(fmt::format("random a {} b at 8/10/12/16 bits", op_name(op)));
  for (int depth : kDepths) {
    Operands gen(seed() + uint64_t(depth) * 1000 + uint64_t(op), depth);
    for (uint64_t i = 0; i < count / 4; ++i) {
      const double a = gen.any();
      double b = gen.rng()() % 2 ? gen.near(a) : gen.any();
      if (op == Op::kDiv && b == 0.0) b = gen.real();
      cmp.op(op, a, b);
    }
  }
}

TEST(SoftfpRandom, Add) {
  PathsReached paths;
  random_pairs(Op::kAdd);
  paths.expect({SOFTFP_PATH_ADD_ZERO_OPERAND, SOFTFP_PATH_ADD_SAME_SIGN, SOFTFP_PATH_SUB_NEAR,
                SOFTFP_PATH_SUB_FAR, SOFTFP_PATH_SUB_TO_ZERO, SOFTFP_PATH_ADD_ALL_STICKY,
                SOFTFP_PATH_ROUND_UP});
}

TEST(SoftfpRandom, Subtract) {
  PathsReached paths;
  random_pairs(Op::kSub);
  paths.expect({SOFTFP_PATH_SUB_NEAR, SOFTFP_PATH_SUB_FAR, SOFTFP_PATH_ROUND_UP});
}

TEST(SoftfpRandom, Multiply) {
  PathsReached paths;
  random_pairs(Op::kMul);
  paths.expect(
      {SOFTFP_PATH_MUL_ZERO, SOFTFP_PATH_MUL_POW2, SOFTFP_PATH_MUL_GENERAL, SOFTFP_PATH_ROUND_UP});
}

TEST(SoftfpRandom, Divide) {
  PathsReached paths;
  random_pairs(Op::kDiv);
  paths.expect({SOFTFP_PATH_DIV_ZERO, SOFTFP_PATH_DIV_GENERAL, SOFTFP_PATH_DIV_DIGIT_DOWN,
                SOFTFP_PATH_DIV_DIGIT_UP, SOFTFP_PATH_ROUND_UP});
}

// Conversions: every integer below 2^64 (exact below 2^53, one rounding above),
// and bit patterns through softfp and back.
TEST(SoftfpRandom, Conversions) {
  PathsReached paths;
  Checker cmp("u64 -> binary64, bits round trip");
  std::mt19937_64 rng(seed());
  for (uint64_t i = 0; i < random_pair_count() / 4; ++i) {
    const int k = 1 + int(rng() % 64);
    uint64_t v = (rng() >> (64 - k)) | (uint64_t{1} << (k - 1));
    if (i % 16 == 0) v = (v | 1) & ~uint64_t{0} >> 10;  // odd 54-bit values: ties
    if (i % 16 == 1) v = ~uint64_t{0} >> (rng() % 11);  // all ones: rounding carries
    const softfp got = softfp_from_u64(v);
    cmp.check(softfp_to_bits(got) == bits_of(static_cast<double>(v)),
              [&] { return fmt::format("(double){}", v); });
    const uint64_t bits = (rng() & ~(uint64_t{0x7FF} << 52)) | (uint64_t(1 + rng() % 2046) << 52);
    cmp.check(softfp_to_bits(softfp_from_bits(bits)) == bits,
              [&] { return fmt::format("bits {:#x}", bits); });
  }
  cmp.check(softfp_to_bits(softfp_from_u64(0)) == 0, [] { return std::string("0"); });
  cmp.check(softfp_to_bits(softfp_from_i64(-5)) == bits_of(-5.0), [] { return std::string("-5"); });
  paths.expect({SOFTFP_PATH_ROUND_UP, SOFTFP_PATH_ROUND_TIE, SOFTFP_PATH_ROUND_CARRY});
}

ssim::int128 to_int128(softfp_i128 q) {
  return static_cast<ssim::int128>((static_cast<ssim::uint128>(q.hi) << 64) | q.lo);
}

// round_half_even(x * 2^64) against the CPU's ssim::to_fixed64, over terms from
// 2^-80 to 2^60, with exact ties.
TEST(SoftfpRandom, FixedPoint) {
  PathsReached paths;
  Checker cmp("to_fixed64");
  std::mt19937_64 rng(seed());
  for (uint64_t i = 0; i < random_pair_count() / 4; ++i) {
    const int e = -80 + int(rng() % 141);
    uint64_t sig = (rng() >> 11) | (uint64_t{1} << 52);
    const int r = -(e - 52 + 64);         // bits below the fixed point
    if (i % 8 == 0 && r >= 1 && r <= 53)  // exactly halfway between two fixed-point values
      sig = (sig & ~((uint64_t{1} << r) - 1)) | (uint64_t{1} << (r - 1));
    double x = std::ldexp(static_cast<double>(sig), e - 52);
    if (rng() % 2) x = -x;
    if (i % 1024 == 0) x = 0.0;
    cmp.check(to_int128(softfp_to_fixed64(soft(x))) == ssim::to_fixed64(x),
              [&] { return fmt::format("to_fixed64({:a})", x); });
  }
  paths.expect(
      {SOFTFP_PATH_FIXED_SHIFT_LEFT, SOFTFP_PATH_FIXED_ROUNDED, SOFTFP_PATH_FIXED_TO_ZERO});
}

// ---- constructed hard cases -------------------------------------------------

// x with its significand's top bit at 2^e.
double at(uint64_t sig, int e) { return std::ldexp(static_cast<double>(sig), e - 52); }

TEST(SoftfpHard, ExactTies) {
  PathsReached paths;
  Checker cmp("exact ties");
  std::mt19937_64 rng(seed());
  for (int i = 0; i < 100000; ++i) {
    const uint64_t sig = (rng() >> 11) | (uint64_t{1} << 52);
    const int e = int(rng() % 100) - 20;
    const double a = at(sig, e);
    const double half_ulp = std::ldexp(1.0, e - 53);
    cmp.op(Op::kAdd, a, half_ulp);  // to even, up or down
    cmp.op(Op::kSub, -a, half_ulp);
    cmp.op(Op::kAdd, at((uint64_t{1} << 53) - 1, e), half_ulp);  // tie that carries
    // Odd products of 54 bits: the integer product lies halfway.
    const uint64_t p = (uint64_t{1} << 26) | (rng() >> 38) | 1;
    const uint64_t q_lo = ((uint64_t{1} << 53) + p - 1) / p, q_hi = ((uint64_t{1} << 54) - 1) / p;
    const uint64_t q = (q_lo + rng() % (q_hi - q_lo + 1)) | 1;
    if (q <= q_hi) cmp.op(Op::kMul, static_cast<double>(p), std::ldexp(static_cast<double>(q), e));
  }
  paths.expect({SOFTFP_PATH_ROUND_TIE, SOFTFP_PATH_ROUND_CARRY});
}

TEST(SoftfpHard, StickyBitDecides) {
  PathsReached paths;
  Checker cmp("sticky bit decides");
  std::mt19937_64 rng(seed());
  for (int i = 0; i < 100000; ++i) {
    const uint64_t sig = (rng() >> 11) | (uint64_t{1} << 52);
    const int e = int(rng() % 100) - 20;
    const double a = at(sig, e);
    const double half_ulp = std::ldexp(1.0, e - 53);
    const double above = std::nextafter(half_ulp, INFINITY), below = std::nextafter(half_ulp, 0.0);
    for (double b : {above, below, std::ldexp(above, -3), std::ldexp(below, 1)}) {
      cmp.op(Op::kAdd, a, b);
      cmp.op(Op::kSub, a, b);
    }
    // 55-bit integer products: the last two bits are the rounding and the sticky bit.
    const uint64_t p = (uint64_t{1} << 27) | (rng() >> 37);
    const uint64_t q_lo = ((uint64_t{1} << 54) + p - 1) / p, q_hi = ((uint64_t{1} << 55) - 1) / p;
    const uint64_t q = q_lo + rng() % (q_hi - q_lo + 1);
    cmp.op(Op::kMul, static_cast<double>(p), static_cast<double>(q));
    // Division: a quotient with the rounding bit set and a remainder of 1.
    cmp.op(Op::kDiv, a, std::nextafter(a, INFINITY) * 0.75);
  }
  paths.expect({SOFTFP_PATH_ROUND_UP, SOFTFP_PATH_SUB_FAR, SOFTFP_PATH_MUL_GENERAL});
}

TEST(SoftfpHard, ExponentGaps) {
  PathsReached paths;
  Checker cmp("exponent gaps 0, 1, 2, 53, 54, >60");
  std::mt19937_64 rng(seed());
  for (int gap : {0, 1, 2, 53, 54, 61, 62, 63, 64, 65, 100}) {
    for (int i = 0; i < 20000; ++i) {
      const int e = int(rng() % 100) - 20;
      const double a = at((rng() >> 11) | (uint64_t{1} << 52), e);
      uint64_t bsig = (rng() >> 11) | (uint64_t{1} << 52);
      if (i % 4 == 0) bsig = uint64_t{1} << 52;
      if (i % 4 == 1) bsig = (uint64_t{1} << 53) - 1;
      const double b = at(bsig, e - gap);
      for (Op op : {Op::kAdd, Op::kSub}) {
        cmp.op(op, a, b);
        cmp.op(op, b, a);
        cmp.op(op, -a, b);
      }
    }
  }
  paths.expect({SOFTFP_PATH_SUB_NEAR, SOFTFP_PATH_SUB_FAR, SOFTFP_PATH_ADD_ALL_STICKY,
                SOFTFP_PATH_ADD_SAME_SIGN});
}

TEST(SoftfpHard, CancellationToOneBit) {
  PathsReached paths;
  Checker cmp("cancellation to one bit");
  std::mt19937_64 rng(seed());
  for (int i = 0; i < 100000; ++i) {
    const int e = int(rng() % 100) - 20;
    const double a = at((rng() >> 11) | (uint64_t{1} << 52), e);
    cmp.op(Op::kSub, a, std::nextafter(a, INFINITY));
    cmp.op(Op::kSub, a, std::nextafter(a, 0.0));
    cmp.op(Op::kAdd, a, -std::nextafter(a, INFINITY));
    const double p = std::ldexp(1.0, e);  // across a binade: gap 1
    cmp.op(Op::kSub, p, std::nextafter(p, 0.0));
    cmp.op(Op::kSub, a, a);
  }
  paths.expect({SOFTFP_PATH_SUB_NEAR, SOFTFP_PATH_SUB_TO_ZERO});
}

// Quotients whose digits (18, 18 and 17 bits) are all zeros or all ones at a chosen place:
// x = floor(Q * y / 2^53) for a chosen 54-bit Q makes x / y's digits those of Q.
TEST(SoftfpHard, QuotientDigitsZeroAndMax) {
  PathsReached paths;
  Checker cmp("quotient digits 0 and radix-1");
  std::mt19937_64 rng(seed());
  for (int i = 0; i < 200000; ++i) {
    const uint64_t y = (rng() >> 11) | (uint64_t{1} << 52);
    uint64_t fraction = rng() >> 11;  // 53 bits after the leading 1
    const int digit = int(rng() % 3), shift = 53 - 18 * (digit + 1);
    const uint64_t mask = shift >= 0 ? uint64_t{0x3FFFF} << shift : uint64_t{0x1FFFF};
    fraction = rng() % 2 ? fraction & ~mask : fraction | mask;
    const ssim::uint128 q = (ssim::uint128{1} << 53) | fraction;
    const uint64_t x = static_cast<uint64_t>((q * y) >> 53);
    if (x >= (uint64_t{1} << 53)) continue;
    const int e = int(rng() % 60) - 20;
    cmp.op(Op::kDiv, at(x, e), at(y, e - int(rng() % 3)));
  }
  paths.expect({SOFTFP_PATH_DIV_DIGIT_ZERO, SOFTFP_PATH_DIV_DIGIT_MAX});
}

// Exact quotients (remainder 0 after some digit) and their neighbours one unit
// away: the digit estimate lands on, or one off, a multiple of the divisor.
TEST(SoftfpHard, RemaindersOneDivisorAway) {
  PathsReached paths;
  Checker cmp("remainders one divisor away");
  std::mt19937_64 rng(seed());
  for (int i = 0; i < 200000; ++i) {
    const int ybits = 1 + int(rng() % 26);
    const uint64_t y = (rng() >> (64 - ybits)) | (uint64_t{1} << (ybits - 1)) | 1;
    const int tbits = 1 + int(rng() % (53 - ybits));
    const uint64_t t = (rng() >> (64 - tbits)) | (uint64_t{1} << (tbits - 1));
    const double x = static_cast<double>(y * t);  // exact: below 2^53
    const double yd = std::ldexp(static_cast<double>(y), int(rng() % 40) - 20);
    cmp.op(Op::kDiv, x, yd);
    cmp.op(Op::kDiv, std::nextafter(x, INFINITY), yd);
    cmp.op(Op::kDiv, std::nextafter(x, 0.0), yd);
    cmp.op(Op::kDiv, x, std::nextafter(yd, 0.0));
  }
  paths.expect({SOFTFP_PATH_DIV_DIGIT_DOWN, SOFTFP_PATH_DIV_DIGIT_UP, SOFTFP_PATH_DIV_DIGIT_ZERO});
}

TEST(SoftfpHard, SignsOfZero) {
  Checker cmp("signed zeros");
  for (double a : {0.0, -0.0, 1.5, -1.5})
    for (double b : {0.0, -0.0, 2.25, -2.25}) {
      cmp.op(Op::kAdd, a, b);
      cmp.op(Op::kSub, a, b);
      cmp.op(Op::kMul, a, b);
      if (b != 0.0) cmp.op(Op::kDiv, a, b);
    }
}

// A division by zero cannot occur in the term (C, D > 0); it must not pass as valid.
TEST(SoftfpHard, DivisionByZeroIsInvalid) {
  EXPECT_FALSE(softfp_is_valid(softfp_div(soft(1.0), soft(0.0))));
}

// softfp_add_u53(i, c): an exact integer 0 <= i < 2^53 plus c > 0, against the
// native (double)i + c, and softfp_add_int (i shifted up to bit 63, times 2): integers of every
// length, c from tiny to huge, ties (c's low bits exactly half an ulp of the sum) and exponent gaps
// around 0..64.
TEST(SoftfpRandom, IntegerPlusPositive) {
  PathsReached paths;
  std::mt19937_64 rng(seed() + 77);
  const uint64_t count = random_pair_count() / 4;
  uint64_t failed = 0;
  for (uint64_t n = 0; n < count; ++n) {
    const int ibits = int(rng() % 54);  // 0..53 bits
    uint64_t i = ibits == 0 ? 0 : (rng() >> (64 - ibits)) | (uint64_t{1} << (ibits - 1));
    if (ibits != 0 && rng() % 8 == 0) i = (uint64_t{2} << (ibits - 1)) - 1;  // all ones: carries
    double c;
    switch (rng() % 4) {
      case 0:
        c = std::ldexp(double((rng() >> 11) | (uint64_t{1} << 52)), int(rng() % 140) - 120);
        break;
      case 1:
        c = std::ldexp(double((rng() >> 11) | (uint64_t{1} << 52)), ibits - 53 - int(rng() % 70));
        break;
      case 2:
        c = std::ldexp(1.0, ibits - 54 - int(rng() % 3)) * double(1 + rng() % 4);
        break;  // ties
      default:
        c = std::ldexp(double(1 + (rng() >> 40)), int(rng() % 40) - 30);
        break;
    }
    double want = double(i) + c;
    softfp got = softfp_add_u53(i, soft(c));
    if (n % 2 == 1) {  // softfp_add_int: i * 2^(s+1) + c, i * 2^s < 2^64 (top bit up to 63)
      const int s = int(rng() % (65 - std::max(ibits, 1)));
      want = double(i << s) * 2.0 + c;
      got = softfp_add_int(i << s, 1, soft(c));
    }
    if ((!softfp_is_valid(got) || softfp_to_bits(got) != bits_of(want)) && failed++ < 10)
      ADD_FAILURE() << fmt::format("{} + {:a}: want {:a}, got {:a}", i, c, want, native(got));
  }
  EXPECT_EQ(failed, 0u);
  paths.expect({SOFTFP_PATH_ADD_INTEGER, SOFTFP_PATH_ROUND_UP, SOFTFP_PATH_ROUND_TIE,
                SOFTFP_PATH_ROUND_CARRY});
}

// softfp_add_int_signed(i, k, neg, c) = (-1)^neg * i * 2^k + c against native
// binary64 (cancellation included: c near i), and the integer roundings
// softfp_round_int53 / softfp_round_int65 against the native conversion.
TEST(SoftfpRandom, SignedIntegerPlusPositiveAndIntegerRounding) {
  PathsReached paths;
  std::mt19937_64 rng(seed() + 78);
  const uint64_t count = random_pair_count() / 4;
  uint64_t failed = 0;
  for (uint64_t n = 0; n < count; ++n) {
    const int ibits = 1 + int(rng() % 53);
    uint64_t i = (rng() >> (64 - ibits)) | (uint64_t{1} << (ibits - 1));
    i <<= int(rng() % (65 - ibits));  // at most 53 significant bits, up to bit 63
    const int k = int(rng() % 2);
    const int neg = int(rng() % 2);
    const double iv = (neg ? -1.0 : 1.0) * std::ldexp(double(i), k);
    double c;
    switch (rng() % 3) {
      case 0:
        c = std::ldexp(double((rng() >> 11) | (uint64_t{1} << 52)), int(rng() % 140) - 120);
        break;
      case 1:
        c = std::fabs(iv) * (1.0 + std::ldexp(double(int64_t(rng() % 9) - 4), -52));
        break;  // cancels
      default:
        c = std::fabs(iv) + std::ldexp(double(1 + rng() % 4), int(rng() % 80) - 40);
        break;
    }
    if (c <= 0.0) c = 1.0;
    const double want = iv + c;
    const softfp got = softfp_add_int_signed(i, k, neg, soft(c));
    if ((!softfp_is_valid(got) || softfp_to_bits(got) != bits_of(want)) && failed++ < 10)
      ADD_FAILURE() << fmt::format("{}{} * 2^{} + {:a}: want {:a}, got {:a}", neg ? "-" : "", i, k,
                                   c, want, native(got));
    // Integer rounding: v below 2^64 - 2^10, and hi:lo below 2^65 - 2^12 (up to
    // 2^64 - 1 with hi = 0: the rounding carries to 2^64 there).
    uint64_t v = rng() >> int(rng() % 64);
    if (v >= ~uint64_t{0} - 1024) v >>= 1;
    if (double(softfp_round_int53(v)) != double(v) && failed++ < 10)
      ADD_FAILURE() << fmt::format("round_int53({})", v);
    const uint64_t hi = rng() % 2;
    uint64_t lo = rng() >> (hi ? 0 : int(rng() % 64));
    if (rng() % 8 == 0) lo = ~uint64_t{0} - rng() % 8192;  // near 2^64 and 2^65
    if (hi && lo >= ~uint64_t{0} - 8192) lo >>= 1;         // below 2^65 - 2^12
    const softfp_scaled r = softfp_round_int65(hi, lo);
    // The reference: hi:lo in 128 bits, rounded to 53 significant bits.
    const ssim::uint128 x = (static_cast<ssim::uint128>(hi) << 64) | lo;
    int length = 0;
    while (length < 128 && (x >> length) != 0) ++length;
    const int drop = length > 53 ? length - 53 : 0;
    ssim::uint128 q = x >> drop;
    if (drop > 0) {
      const ssim::uint128 rem = x & ((static_cast<ssim::uint128>(1) << drop) - 1);
      const ssim::uint128 halfway = static_cast<ssim::uint128>(1) << (drop - 1);
      if (rem > halfway || (rem == halfway && (q & 1))) ++q;
    }
    if ((static_cast<ssim::uint128>(r.i) << r.k) != (q << drop) && failed++ < 10)
      ADD_FAILURE() << fmt::format("round_int65({}, {})", hi, lo);
  }
  EXPECT_EQ(failed, 0u);
  paths.expect({SOFTFP_PATH_ADD_INTEGER, SOFTFP_PATH_ROUND_UP});
}

}  // namespace
}  // namespace exactvq::softfp_test
