// ADM's per-sample definition, written once for the host and for CUDA devices
// with native fp64: the DWT taps, the decoupling (its angle test and
// enhancement are libvmaf's float and binary64 steps), the CSF, the masking
// cube and the denominator's term. The scalar reference's row routines
// (dwt.cpp, decouple.cpp, csf.cpp, masking.cpp, denominator.cpp) and the CUDA
// kernels (cuda/adm_kernels.cu) both call these, so their samples agree.
// Contraction is off on both (-ffp-contract=off, -fmad=false): each binary64
// operation is rounded on its own.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define EXACTVQ_ADM_HD __host__ __device__ inline
#else
#define EXACTVQ_ADM_HD inline
#endif

namespace exactvq::adm::pixel {

// ---- DWT ----

// The db2 analysis filters in Q15 (dwt.h's kDwtLow, kDwtHigh), tap k.
EXACTVQ_ADM_HD constexpr int32_t dwt_low(int k) {
  return k == 0 ? 15826 : k == 1 ? 27411 : k == 2 ? 7345 : -4240;
}
EXACTVQ_ADM_HD constexpr int32_t dwt_high(int k) {
  return k == 0 ? -4240 : k == 1 ? -7345 : k == 2 ? 27411 : -15826;
}

// Index 2i - 1 + k of a line of `length` samples, mirrored without repeating the edge.
EXACTVQ_ADM_HD int dwt_mirror(int index, int length) {
  if (index < 0) return -index;
  if (index >= length) return 2 * length - index - 1;
  return index;
}

// Scale 0, vertical pass of one column from samples s[0..3] (libvmaf's int32
// sums wrap for 16-bit samples but end in range: the exact 64-bit sum equals them).
EXACTVQ_ADM_HD int16_t dwt0_vertical_lo(const int64_t s[4], int bitdepth) {
  const int64_t half = int64_t{1} << (bitdepth - 1);
  const int64_t centre = int64_t{46342} * half;
  int64_t sum = 0;
  for (int k = 0; k < 4; ++k) sum += dwt_low(k) * s[k];
  return static_cast<int16_t>((sum - centre + half) >> bitdepth);
}
EXACTVQ_ADM_HD int16_t dwt0_vertical_hi(const int64_t s[4], int bitdepth) {
  const int64_t half = int64_t{1} << (bitdepth - 1);
  int64_t sum = 0;
  for (int k = 0; k < 4; ++k) sum += dwt_high(k) * s[k];
  return static_cast<int16_t>((sum + half) >> bitdepth);
}

// Scale 0, horizontal pass: x[0..3] the vertical pass at the 4 taps.
EXACTVQ_ADM_HD int16_t dwt0_horizontal_low(const int16_t x[4]) {
  int32_t sum = 0;  // |sum| <= 54822 * 32768: no overflow
  for (int k = 0; k < 4; ++k) sum += dwt_low(k) * x[k];
  return static_cast<int16_t>((sum + 32768) >> 16);
}
EXACTVQ_ADM_HD int16_t dwt0_horizontal_high(const int16_t x[4]) {
  int32_t sum = 0;
  for (int k = 0; k < 4; ++k) sum += dwt_high(k) * x[k];
  return static_cast<int16_t>((sum + 32768) >> 16);
}

// Scales 1..3: the passes' rounding and shift (vertical, horizontal).
EXACTVQ_ADM_HD int64_t dwt_s123_vertical_round(int scale) { return scale == 1 ? 0 : 32768; }
EXACTVQ_ADM_HD int dwt_s123_vertical_shift(int scale) { return scale == 1 ? 0 : 16; }
EXACTVQ_ADM_HD int64_t dwt_s123_horizontal_round(int scale) { return scale == 2 ? 32768 : 16384; }
EXACTVQ_ADM_HD int dwt_s123_horizontal_shift(int scale) { return scale == 2 ? 16 : 15; }

// One output of either pass at scales 1..3: the 4 taps of `filter`
// (true: low-pass), rounded and shifted, cast as libvmaf's (modulo 2^32).
EXACTVQ_ADM_HD int32_t dwt_s123_tap(const int32_t x[4], bool low, int64_t round, int shift) {
  int64_t sum = 0;
  for (int k = 0; k < 4; ++k) sum += int64_t{low ? dwt_low(k) : dwt_high(k)} * x[k];
  return static_cast<int32_t>((sum + round) >> shift);
}

// ---- decoupling ----

// (float)(cos(1 degree) * cos(1 degree)) as libvmaf rounds it (decouple.h).
#define EXACTVQ_ADM_COS_ONE_DEGREE_SQUARED 0x1.ffd814p-1f

// Entry o + 32768 of libvmaf's Q30 reciprocal table, o in -32768..32768, o != 0:
// 2^30 / |o| truncated, negated for o < 0 (decouple.h's reciprocal_table()).
EXACTVQ_ADM_HD int32_t reciprocal(int32_t o) {
  return o > 0 ? (int32_t{1} << 30) / o : -((int32_t{1} << 30) / -o);
}

// libvmaf's angle test: the (h, v) vectors o and t are within one degree when
// o.t >= 0 and (o.t)^2 >= cos^2(1 deg) |o|^2 |t|^2, each integer converted to
// float, then scaled by 1/4096 and multiplied in binary64 left to right.
EXACTVQ_ADM_HD bool within_one_degree(int64_t dot, int64_t o_mag_sq, int64_t t_mag_sq) {
  const double d = static_cast<double>(static_cast<float>(dot)) / 4096.0;
  if (!(d >= 0.0)) return false;
  const double o = static_cast<double>(static_cast<float>(o_mag_sq)) / 4096.0;
  const double t = static_cast<double>(static_cast<float>(t_mag_sq)) / 4096.0;
  return d * d >= static_cast<double>(EXACTVQ_ADM_COS_ONE_DEGREE_SQUARED) * o * t;
}

// The restored value after the enhancement rule: where the angle test holds,
// the restored value times the gain limit, but no further from zero than t.
// libvmaf's float product (k / 32768) * (o / 64) only supplies the sign, which
// is that of o when k > 0; the products here are exact in binary64 and the
// result is in range, so the conversion truncates as C's does.
template <typename T>
EXACTVQ_ADM_HD T enhance(T rst, int64_t k, T o, T t, bool angle, double gain_limit) {
  if (!angle || k == 0 || o == 0) return rst;
  const double scaled = static_cast<double>(rst) * gain_limit;
  const double tt = static_cast<double>(t);
  if (o > 0) return static_cast<T>(scaled < tt ? scaled : tt);
  return static_cast<T>(scaled > tt ? scaled : tt);
}

EXACTVQ_ADM_HD int64_t clamp_gain(int64_t k) { return k < 0 ? 0 : (k > 32768 ? 32768 : k); }

// One scale-0 sample of the three orientations (h, v, d): o the reference's,
// t the distorted's; the restored and additive parts out.
EXACTVQ_ADM_HD void decouple_s0(const int16_t o[3], const int16_t t[3], double gain_limit, int16_t restored[3],
                                int16_t additive[3]) {
  const int64_t dot = int64_t{o[0]} * t[0] + int64_t{o[1]} * t[1];
  const int64_t o_mag = int64_t{o[0]} * o[0] + int64_t{o[1]} * o[1];
  const int64_t t_mag = int64_t{t[0]} * t[0] + int64_t{t[1]} * t[1];
  const bool angle = within_one_degree(dot, o_mag, t_mag);
  for (int b = 0; b < 3; ++b) {
    // k = t / o in Q15 through the reciprocal table; libvmaf keeps it in int32.
    const int32_t k_raw =
        o[b] == 0 ? 32768 : static_cast<int32_t>((int64_t{reciprocal(o[b])} * t[b] + 16384) >> 15);
    const int32_t k = static_cast<int32_t>(clamp_gain(k_raw));
    int16_t rst = static_cast<int16_t>((k * o[b] + 16384) >> 15);
    rst = enhance<int16_t>(rst, k, o[b], t[b], angle, gain_limit);
    restored[b] = rst;
    additive[b] = static_cast<int16_t>(t[b] - rst);  // stored modulo 2^16, as libvmaf's
  }
}

// a * b + c * d modulo 2^64 (libvmaf's int64 products and sum).
EXACTVQ_ADM_HD int64_t dot2_wrapping(int32_t a, int32_t b, int32_t c, int32_t d) {
  return static_cast<int64_t>(static_cast<uint64_t>(int64_t{a} * b) + static_cast<uint64_t>(int64_t{c} * d));
}

// Count of leading zero bits of a nonzero 32-bit word.
EXACTVQ_ADM_HD int leading_zeros32(uint32_t v) {
  int n = 0;
  while (!(v & 0x80000000u)) {
    v <<= 1;
    ++n;
  }
  return n;
}

// The same at scales 1..3 (32-bit bands, the divisor reduced to 15 bits first).
EXACTVQ_ADM_HD void decouple_s123(const int32_t o[3], const int32_t t[3], double gain_limit, int32_t restored[3],
                                  int32_t additive[3]) {
  // libvmaf's int64 products; |o|, |t| < 2^31 keep the sums of two in range
  // in practice, and they wrap as its would otherwise.
  const int64_t dot = dot2_wrapping(o[0], t[0], o[1], t[1]);
  const int64_t o_mag = dot2_wrapping(o[0], o[0], o[1], o[1]);
  const int64_t t_mag = dot2_wrapping(t[0], t[0], t[1], t[1]);
  const bool angle = within_one_degree(dot, o_mag, t_mag);
  for (int b = 0; b < 3; ++b) {
    int64_t k_raw = 32768;
    if (o[b] != 0) {
      // The divisor |o| rounded to its top 15 bits (shift s), so that the
      // Q30 table applies; the rounding constant 1 << (14 + s) is an int,
      // which for s = 17 is INT32_MIN in libvmaf's arithmetic.
      const uint32_t abs_o = static_cast<uint32_t>(o[b] < 0 ? -static_cast<int64_t>(o[b]) : o[b]);
      int shift = 0;
      uint32_t divisor = abs_o;
      if (abs_o >= 32768) {
        shift = 17 - leading_zeros32(abs_o);
        divisor = static_cast<uint16_t>((abs_o + (uint32_t{1} << (shift - 1))) >> shift);
      }
      const int64_t sign = o[b] < 0 ? -1 : 1;
      const int64_t round = static_cast<int32_t>(uint32_t{1} << (14 + shift));
      k_raw = ((int64_t{reciprocal(int32_t(divisor))} * t[b]) * sign + round) >> (15 + shift);
    }
    const int64_t k = clamp_gain(k_raw);
    int32_t rst = static_cast<int32_t>((k * o[b] + 16384) >> 15);
    rst = enhance<int32_t>(rst, k, o[b], t[b], angle, gain_limit);
    restored[b] = rst;
    additive[b] = static_cast<int32_t>(static_cast<uint32_t>(t[b]) - static_cast<uint32_t>(rst));
  }
}

// ---- CSF ----

// Scale 0: csf = (factor * src + round) >> shift, kept as libvmaf's int32
// arithmetic modulo 2^32; flt = (4369 |csf| + 2048) >> 12 stored in int16.
EXACTVQ_ADM_HD void csf_s0(int16_t src, uint16_t factor, int shift, int32_t round, int16_t* csf, int16_t* flt) {
  const uint32_t product = static_cast<uint32_t>(int32_t{factor} * int32_t{src});
  const int32_t rounded = static_cast<int32_t>(product + static_cast<uint32_t>(round));
  const int16_t value = static_cast<int16_t>(rounded >> shift);
  *csf = value;
  const int32_t magnitude = value < 0 ? -int32_t{value} : int32_t{value};
  *flt = static_cast<int16_t>((4369 * magnitude + 2048) >> 12);
}

// The rounding constant libvmaf adds before the 32-bit shifts of scales 1..3
// (1u << 31 stored in an int32: INT32_MIN; csf.h's kRoundBeforeShift32).
EXACTVQ_ADM_HD int64_t round_before_shift32() { return -int64_t{2147483647} - 1; }

// Scales 1..3: csf = (factor * src + 2^27) >> 28 with the Q32 factor;
// flt = (143165577 |csf| - 2^31) >> 32.
EXACTVQ_ADM_HD void csf_s123(int32_t src, uint32_t factor, int32_t* csf, int32_t* flt) {
  const int32_t value = static_cast<int32_t>((int64_t{factor} * src + (int64_t{1} << 27)) >> 28);
  *csf = value;
  const int64_t magnitude = value < 0 ? -int64_t{value} : int64_t{value};
  *flt = static_cast<int32_t>((int64_t{143165577} * magnitude + round_before_shift32()) >> 32);
}

// ---- masking ----

// |v| for int32 as C's abs on two's complement (INT32_MIN stays INT32_MIN).
EXACTVQ_ADM_HD int32_t abs32(int32_t v) { return v < 0 ? static_cast<int32_t>(0u - static_cast<uint32_t>(v)) : v; }

// a - b modulo 2^32.
EXACTVQ_ADM_HD int32_t sub32(int64_t a, int64_t b) { return static_cast<int32_t>(static_cast<uint64_t>(a - b)); }

// a + b modulo 2^64: libvmaf's int64 row sums, defined where extreme rows would overflow.
EXACTVQ_ADM_HD int64_t wrapping_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

// The 8 flattened neighbours of a sample in one orientation (n[0..7], any
// order); int32 as libvmaf's, modulo 2^32 where extreme int32 bands would overflow it.
template <typename T>
EXACTVQ_ADM_HD int32_t neighbour_sum(T a0, T a1, T a2, T r0, T r2, T b0, T b1, T b2) {
  const int64_t sum = int64_t{a0} + a1 + a2 + r0 + r2 + b0 + b1 + b2;
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(sum)));
}

// The cube of max(x, 0) in fixed point, as libvmaf rounds it: square rounded
// and shifted (kept in int32), times x again, rounded and shifted.
EXACTVQ_ADM_HD int64_t cube_term(int32_t x_abs_minus_thr, int square_shift, int64_t square_round, int cube_shift,
                                 int64_t cube_round) {
  const int32_t x = x_abs_minus_thr < 0 ? 0 : x_abs_minus_thr;
  const int32_t sq = static_cast<int32_t>((int64_t{x} * x + square_round) >> square_shift);
  return (int64_t{sq} * x + cube_round) >> cube_shift;
}

// Scale 0: one orientation's part of the threshold, from the masker's CSF
// value at the sample and its flattened neighbours' sum.
EXACTVQ_ADM_HD int32_t threshold_part_s0(int16_t masker_centre, int32_t neighbours) {
  const int32_t centre = masker_centre;
  const int16_t centre_term = static_cast<int16_t>((8738 * (centre < 0 ? -centre : centre) + 2048) >> 12);
  return neighbours + centre_term;
}
EXACTVQ_ADM_HD int square_shift_s0(int b) { return b == 2 ? 30 : 29; }
EXACTVQ_ADM_HD int64_t square_round_s0(int b) { return b == 2 ? int64_t{1} << 29 : int64_t{1} << 28; }
EXACTVQ_ADM_HD int threshold_shift_s0(int b) { return b == 2 ? 12 : 10; }

// Scale 0: the cube term of source value src of orientation b (Q21 / Q23 factor).
EXACTVQ_ADM_HD int64_t masking_term_s0(int16_t src, uint16_t factor, int32_t threshold, int b, int cube_shift,
                                       int64_t cube_round) {
  const int32_t x = int32_t{src} * int32_t{factor};  // < 2^31: no overflow
  const int32_t diff = sub32(abs32(x), int64_t{threshold} * (int64_t{1} << threshold_shift_s0(b)));
  return cube_term(diff, square_shift_s0(b), square_round_s0(b), cube_shift, cube_round);
}

// Scales 1..3: one orientation's part of the threshold (summed modulo 2^32
// over the orientations: int32 in libvmaf).
EXACTVQ_ADM_HD uint32_t threshold_part_s123(int32_t masker_centre, int32_t neighbours) {
  const int64_t centre = abs32(masker_centre);
  const int32_t centre_term = static_cast<int32_t>((int64_t{286331153} * centre + round_before_shift32()) >> 32);
  return static_cast<uint32_t>(neighbours) + static_cast<uint32_t>(centre_term);
}

EXACTVQ_ADM_HD int64_t masking_term_s123(int32_t src, uint32_t factor, uint32_t threshold, int cube_shift,
                                         int64_t cube_round) {
  const int32_t x = static_cast<int32_t>((int64_t{src} * int64_t{factor} + (int64_t{1} << 27)) >> 28);
  const int32_t diff = sub32(abs32(x), static_cast<int32_t>(threshold));
  return cube_term(diff, 30, int64_t{1} << 29, cube_shift, cube_round);
}

// ---- denominator ----

EXACTVQ_ADM_HD uint32_t magnitude32(int32_t v) {
  return v < 0 ? 0u - static_cast<uint32_t>(v) : static_cast<uint32_t>(v);
}

// Scale 0: |o|^3, exact.
EXACTVQ_ADM_HD uint64_t denominator_term_s0(int16_t o) {
  const uint64_t m = static_cast<uint16_t>(magnitude32(o));
  return m * m * m;
}

// Scales 1..3: ((o^2 + 2^q) >> q) * |o|, rounded and shifted by cube_shift
// (q = 31, 30, 31 for scales 1, 2, 3).
EXACTVQ_ADM_HD int denominator_square_shift(int scale) { return scale == 2 ? 30 : 31; }
EXACTVQ_ADM_HD uint64_t denominator_term_s123(int32_t o, int q, int cube_shift, uint64_t cube_round) {
  const uint64_t m = magnitude32(o);
  return ((((m * m) + (uint64_t{1} << q)) >> q) * m + cube_round) >> cube_shift;
}

}  // namespace exactvq::adm::pixel
