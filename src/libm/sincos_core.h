// The pieces glibc 2.36's sin and cos (IBM Accurate Mathematical Library,
// s_sin.c, FMA variant) share: the two kernels that evaluate sin and cos of
// a + da near a table node, and the reductions of x to a + da in
// [-pi/4, pi/4] with its quadrant. Host and device alike (portable.h).
#pragma once

#include <cstdint>

#include "libm/fp_bits.h"
#include "libm/portable.h"
#include "libm/sincos_table.h"

namespace exactvq::libm::detail {

// Adding it leaves |x| rounded to a multiple of 1/128 in the low bits.
inline constexpr double kNodeShift = 0x1.8p45;

// sin(x) ~ x + x^3 (S3 + S5 x^2) and cos(x) ~ 1 - x^2 (C2 + C4 x^2 + C6 x^4)
// for |x| <= 1/256 (the distance to the nearest node).
inline constexpr double kS3 = -0x1.5555555555515p-3;
inline constexpr double kS5 = 0x1.11110e829872fp-7;
inline constexpr double kC2 = 0x1p-1;
inline constexpr double kC4 = -0x1.5555555555535p-5;
inline constexpr double kC6 = 0x1.6c16bedd9e239p-10;

// sin(x) ~ x + x^3 (T1 + T2 x^2 + ... + T5 x^8) for |x| < 0.126.
inline constexpr double kT1 = -0x1.5555555555555p-3;
inline constexpr double kT2 = 0x1.1111111110ecep-7;
inline constexpr double kT3 = -0x1.a01a019db08b8p-13;
inline constexpr double kT4 = 0x1.71de27b9a7ed9p-19;
inline constexpr double kT5 = -0x1.addffc2fcdf59p-26;

// 2/pi, and pi/2 in four parts (the first three short, so that n times them
// is exact), for the medium reduction.
inline constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
inline constexpr double kToInt = 0x1.8p52;
inline constexpr double kHalfPi1 = 0x1.921fb58p0;
inline constexpr double kHalfPi2 = -0x1.dde973cp-27;
inline constexpr double kHalfPi3 = -0x1.cb3b398p-55;
inline constexpr double kHalfPi4 = -0x1.d747f23e32ed7p-83;

// The table node nearest |x|: its index, and |x| less the node.
EXACTVQ_LIBM_FN int nearest_node(double abs_x, double* offset) {
  const double u = abs_x + kNodeShift;
  *offset = abs_x - (u - kNodeShift);
  return static_cast<int>(static_cast<uint32_t>(bits_of(u)));
}

// 2/pi in base 2^24, 75 digits (enough for any binary64 exponent).
EXACTVQ_LIBM_TABLE(double, two_over_pi_digits,
                   {
                       10680707.0, 7228996.0,  1387004.0,  2578385.0,  16069853.0, 12639074.0,
                       9804092.0,  4427841.0,  16666979.0, 11263675.0, 12935607.0, 2387514.0,
                       4345298.0,  14681673.0, 3074569.0,  13734428.0, 16653803.0, 1880361.0,
                       10960616.0, 8533493.0,  3062596.0,  8710556.0,  7349940.0,  6258241.0,
                       3772886.0,  3769171.0,  3798172.0,  8675211.0,  12450088.0, 3874808.0,
                       9961438.0,  366607.0,   15675153.0, 9132554.0,  7151469.0,  3571407.0,
                       2607881.0,  12013382.0, 4155038.0,  6285869.0,  7677882.0,  13102053.0,
                       15825725.0, 473591.0,   9065106.0,  15363067.0, 6271263.0,  9264392.0,
                       5636912.0,  4652155.0,  7056368.0,  13614112.0, 10155062.0, 1944035.0,
                       9527646.0,  15080200.0, 6658437.0,  6231200.0,  6832269.0,  16767104.0,
                       5075751.0,  3212806.0,  1398474.0,  7579849.0,  6349435.0,  12618859.0,
                       4703257.0,  12806093.0, 14477321.0, 2786137.0,  12875403.0, 9837734.0,
                       14528324.0, 13719321.0, 343717.0,
                   })

// One part (x1 or x2, at most 27 bits) times 2/pi, reduced modulo 4 in base
// 2^24: the integer part so far in *sum, the fraction as b + bb.
EXACTVQ_LIBM_FN void multiply_part_by_two_over_pi(double part, double* sum, double* b, double* bb) {
  constexpr double kBig = 0x1.8p52;
  constexpr double kBig1 = 0x1.8p54;
  int k = static_cast<int>((bits_of(part) >> 52) & 2047);
  k = (k - 450) / 24;
  if (k < 0) k = 0;
  // 2^(576 - 24 k), which scales the product of the chosen digits into range.
  double scale = double_of((uint64_t{0x63f} - static_cast<uint64_t>(k * 24)) << 52);
  double r[6];
  for (int i = 0; i < 6; ++i) {
    r[i] = part * two_over_pi_digits()[k + i];
    r[i] = r[i] * scale;
    scale = scale * 0x1p-24;
  }
  double total = 0;
  for (int i = 0; i < 3; ++i) {
    const double whole = (r[i] + kBig) - kBig;
    total = total + whole;
    r[i] = r[i] - whole;
  }
  double t = 0;
  for (int i = 0; i < 6; ++i) t = t + r[5 - i];
  double low = r[0] - t;
  for (int i = 1; i < 6; ++i) low = low + r[i];
  double whole = (t + kBig) - kBig;
  total = total + whole;
  t = t - whole;
  *b = t + low;
  *bb = (t - *b) + low;
  whole = (total + kBig1) - kBig1;
  *sum = total - whole;
}

// sin(x + dx) for |x| < 0.8555 (|dx| tiny); its sign follows x.
EXACTVQ_LIBM_FN double sin_kernel(double x, double dx) {
  const double x_in = x;
  if (abs_of(x) < 0.126) {
    // Taylor series, with (1 - x^2/2) dx for the tail.
    const double xx = x * x;
    double p = fused(xx, kT5, kT4);
    p = fused(xx, p, kT3);
    p = fused(xx, p, kT2);
    p = fused(xx, p, kT1);
    const double half_dx = 0.5 * dx;
    const double t1 = fused(p, x, -half_dx);
    const double t = fused(xx, t1, dx);
    return x + t;
  }
  if (x <= 0) dx = -dx;
  double offset;
  const int node = nearest_node(abs_of(x), &offset);
  const SinCosEntry& e = sincos_table()[node];
  // sin(node + offset) = sin(node) cos(offset) + cos(node) sin(offset).
  const double xx = offset * offset;
  const double s_poly = fused(xx, kS5, kS3);
  const double s = offset + fused(offset * xx, s_poly, dx);
  double c_poly = fused(xx, kC6, kC4);
  c_poly = fused(xx, c_poly, kC2);
  const double c = fused(offset, dx, xx * c_poly);
  double cor = fused(s, e.cos_lo, e.sin_lo);
  cor = fused(-c, e.sin_hi, cor);
  cor = fused(s, e.cos_hi, cor);
  return with_sign_of(e.sin_hi + cor, x_in);
}

// cos(x + dx) for |x| < 0.8555 (|dx| tiny).
EXACTVQ_LIBM_FN double cos_kernel(double x, double dx) {
  if (x < 0) dx = -dx;
  double offset;
  const int node = nearest_node(abs_of(x), &offset);
  offset = offset + dx;
  const SinCosEntry& e = sincos_table()[node];
  // cos(node + offset) = cos(node) cos(offset) - sin(node) sin(offset).
  const double xx = offset * offset;
  const double s_poly = fused(xx, kS5, kS3);
  const double s = fused(offset * xx, s_poly, offset);
  double c_poly = fused(xx, kC6, kC4);
  c_poly = fused(xx, c_poly, kC2);
  const double c = xx * c_poly;
  double cor = fused(-s, e.sin_lo, e.cos_lo);
  cor = fused(-c, e.cos_hi, cor);
  cor = fused(-s, e.sin_hi, cor);
  return e.cos_hi + cor;
}

// x = n pi/2 + (a + da), returning n mod 4, for |x| < 105414350: x/(pi/2)
// rounded, then pi/2 in four parts subtracted.
EXACTVQ_LIBM_FN int reduce_by_half_pi(double x, double* a, double* da) {
  const double t = fused(x, kTwoOverPi, kToInt);
  const double xn = t - kToInt;
  const int n = static_cast<int>(static_cast<uint32_t>(bits_of(t)) & 3);
  double y = fused(-xn, kHalfPi1, x);
  y = fused(-xn, kHalfPi2, y);
  const double t2 = fused(-xn, kHalfPi3, y);
  double db = fused(-kHalfPi3, xn, y - t2);
  const double b = fused(-xn, kHalfPi4, t2);
  db = db + fused(-xn, kHalfPi4, t2 - b);
  *a = b;
  *da = db;
  return n;
}

// The same for any finite x (glibc's __branred: 2/pi's digits in base 2^24,
// built without FMA, so plain binary64 operations).
EXACTVQ_LIBM_FN int reduce_by_half_pi_large(double x, double* a, double* da) {
  constexpr double kSplit = 0x1p27 + 1;
  constexpr double kHalfPi = 0x1.921fb54442d18p0;
  constexpr double kHalfPiLo = 0x1.1a62633145c07p-54;
  constexpr double kHalfPiHead = 0x1.921fb58p0;
  constexpr double kHalfPiHeadRest = -0x1.dde974p-27;
  x = x * 0x1p-600;
  // x = x1 + x2, each with at most 26 significant bits.
  double t = x * kSplit;
  const double x1 = t - (t - x);
  const double x2 = x - x1;
  double sum1, b1, bb1, sum2, b2, bb2;
  multiply_part_by_two_over_pi(x1, &sum1, &b1, &bb1);
  multiply_part_by_two_over_pi(x2, &sum2, &b2, &bb2);
  double sum = sum1 + sum2;
  double b = b1 + b2;
  const double bb = abs_of(b1) > abs_of(b2) ? (b1 - b) + b2 : (b2 - b) + b1;
  if (b > 0.5) {
    b = b - 1.0;
    sum = sum + 1.0;
  } else if (b < -0.5) {
    b = b + 1.0;
    sum = sum - 1.0;
  }
  // The fraction s + t of a quarter turn, times pi/2 in double-double.
  double s = b + ((bb + bb1) + bb2);
  t = ((b - s) + bb) + (bb1 + bb2);
  const double split = s * kSplit;
  const double t1 = split - (split - s);
  const double t2 = s - t1;
  // One operation a statement: glibc builds this routine without FMA, so no
  // product here may be fused with the sum that follows it.
  const double head = s * kHalfPi;
  const double p11 = t1 * kHalfPiHead;
  const double p12 = t1 * kHalfPiHeadRest;
  const double p21 = t2 * kHalfPiHead;
  const double p22 = t2 * kHalfPiHeadRest;
  const double p_lo = s * kHalfPiLo;
  const double p_t = t * kHalfPi;
  double tail = p11 - head;
  tail = tail + p12;
  tail = tail + p21;
  double rest = p22 + p_lo;
  rest = rest + p_t;
  tail = tail + rest;
  s = head + tail;
  *a = s;
  *da = (head - s) + tail;
  return static_cast<int>(sum) & 3;
}

// sin (n even) or cos (n odd) of a + da, negated for quadrants 2 and 3.
EXACTVQ_LIBM_FN double sin_cos_in_quadrant(double a, double da, int n) {
  const double v = (n & 1) != 0 ? cos_kernel(a, da) : sin_kernel(a, da);
  return (n & 2) != 0 ? -v : v;
}

}  // namespace exactvq::libm::detail
