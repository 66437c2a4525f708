/* softfp: the binary64 SSIM term of spec/ssim.md on 64-bit integers, for
 * devices without fp64 (spec/fp64-free.md).
 *
 * One source for three languages: C++ (host tests), CUDA C++ and OpenCL C. So it
 * uses only their common subset: integer types behind the typedefs below, plain
 * structs and functions, no double, no namespaces, no std::, no exceptions.
 *
 * Using it:
 *  - C++: #include "softfp/softfp.h". Functions are `static inline`.
 *  - CUDA: #include it in the .cu file as is; under __CUDACC__ every function is
 *    `static __host__ __device__ inline` and count-leading-zeros is __clzll on the
 *    device. Nothing needs to be defined first. Build with -fmad=false like every
 *    other target (the header itself does no floating-point arithmetic whose
 *    rounding matters: its fp32 is only an estimate that integers correct).
 *  - OpenCL C: paste or #include it before the kernels (it uses ulong/uint, clz).
 *  - Optional: #define SOFTFP_PATH(id) before inclusion to count which paths
 *    (SOFTFP_PATH_* below) run; the host tests do, kernels leave it empty.
 *
 * softfp_term takes softfp_term_fast (branch-free) for the windows no border
 * truncates at 8 to 10 bits, softfp_term_fast_weight for nearly all the
 * truncated ones there, and softfp_term_with elsewhere.
 *
 * A number is sign, significand and exponent: value = (-1)^neg * sig * 2^exp
 * with sig == 0 (zero) or 2^52 <= sig < 2^53. Every operation returns what IEEE-754
 * binary64 round-to-nearest-even returns, for zero and normal operands and
 * results; the term never leaves that range (spec/ssim.md: no subnormal, infinite
 * or NaN value occurs), and softfp_is_valid() says whether a result is one. Change
 * the term here in the same commit as src/ssim/term.h.
 */
#ifndef EXACTVQ_SOFTFP_H
#define EXACTVQ_SOFTFP_H

#if defined(__OPENCL_VERSION__)
typedef ulong softfp_u64;
typedef long softfp_i64;
typedef uint softfp_u32;
typedef int softfp_i32;
#define SOFTFP_FN static inline
#define SOFTFP_U64_C(x) x##UL
#elif defined(__CUDACC__)
#include <stdint.h>
typedef uint64_t softfp_u64;
typedef int64_t softfp_i64;
typedef uint32_t softfp_u32;
typedef int32_t softfp_i32;
#define SOFTFP_FN static __host__ __device__ inline
#define SOFTFP_U64_C(x) UINT64_C(x)
#else
#include <stdint.h>
typedef uint64_t softfp_u64;
typedef int64_t softfp_i64;
typedef uint32_t softfp_u32;
typedef int32_t softfp_i32;
#define SOFTFP_FN static inline
#define SOFTFP_U64_C(x) UINT64_C(x)
#endif

/* The high 32 bits of a 32 x 32-bit product: one instruction where the target
 * has it (the same value everywhere). */
#if defined(__OPENCL_VERSION__)
#define SOFTFP_MULHI32(a, b) mul_hi((softfp_u32)(a), (softfp_u32)(b))
#elif defined(__CUDA_ARCH__)
#define SOFTFP_MULHI32(a, b) __umulhi((softfp_u32)(a), (softfp_u32)(b))
#else
#define SOFTFP_MULHI32(a, b) ((softfp_u32)(((softfp_u64)(softfp_u32)(a) * (softfp_u32)(b)) >> 32))
#endif

/* Path counters for the tests (see the top). */
#ifndef SOFTFP_PATH
#define SOFTFP_PATH(id) ((void)0)
#endif
#define SOFTFP_PATH_ADD_ZERO_OPERAND 0   /* an operand is zero */
#define SOFTFP_PATH_ADD_SAME_SIGN 1      /* magnitudes add */
#define SOFTFP_PATH_SUB_NEAR 2           /* exponent gap 0 or 1: exact difference */
#define SOFTFP_PATH_SUB_FAR 3            /* gap >= 2: jammed sticky bit */
#define SOFTFP_PATH_SUB_TO_ZERO 4        /* x - x = +0 */
#define SOFTFP_PATH_ADD_ALL_STICKY 5     /* gap >= 64: the smaller is only a sticky bit */
#define SOFTFP_PATH_MUL_ZERO 6
#define SOFTFP_PATH_MUL_POW2 7           /* shortcut: a power of two (w = 2^16) moves the exponent */
#define SOFTFP_PATH_MUL_GENERAL 8        /* 106-bit product */
#define SOFTFP_PATH_DIV_ZERO 9           /* zero dividend */
#define SOFTFP_PATH_DIV_GENERAL 10
#define SOFTFP_PATH_DIV_DIGIT_DOWN 11    /* fp32 estimate one or more too high */
#define SOFTFP_PATH_DIV_DIGIT_UP 12      /* fp32 estimate too low */
#define SOFTFP_PATH_DIV_DIGIT_ZERO 13    /* a quotient digit of 0 */
#define SOFTFP_PATH_DIV_DIGIT_MAX 14     /* a quotient digit of radix - 1 */
#define SOFTFP_PATH_ROUND_UP 15          /* rounding incremented the significand */
#define SOFTFP_PATH_ROUND_TIE 16         /* exactly halfway */
#define SOFTFP_PATH_ROUND_CARRY 17       /* rounding up reached 2^53 */
#define SOFTFP_PATH_TERM_INTEGER 18      /* shortcut: the integer parts of the term are exact */
#define SOFTFP_PATH_TERM_GENERAL 19
#define SOFTFP_PATH_FIXED_SHIFT_LEFT 20  /* |term| * 2^64 is an integer */
#define SOFTFP_PATH_FIXED_ROUNDED 21
#define SOFTFP_PATH_FIXED_TO_ZERO 22     /* |term| * 2^64 < 1/2 */
#define SOFTFP_PATH_ADD_INTEGER 23       /* an exact integer plus a positive number */
#define SOFTFP_PATH_TERM_POW2_WEIGHT 24  /* shortcut: w is a power of two (2^16 inside) */
#define SOFTFP_PATH_TERM_FAST 25         /* the fast path: w = 2^16, integer parts exact */
/* The fast path's roundings, by stage: A, C, D (an integer plus a constant's
 * fraction); B (a 64-bit fixed point); either product; the quotient. */
#define SOFTFP_PATH_FAST_SUM_UP 26
#define SOFTFP_PATH_FAST_SUM_TIE 27
#define SOFTFP_PATH_FAST_SUM_CARRY 28
#define SOFTFP_PATH_FAST_B_UP 29
#define SOFTFP_PATH_FAST_B_TIE 30
#define SOFTFP_PATH_FAST_B_CARRY 31
#define SOFTFP_PATH_FAST_MUL_UP 32
#define SOFTFP_PATH_FAST_MUL_TIE 33
#define SOFTFP_PATH_FAST_MUL_CARRY 34
#define SOFTFP_PATH_FAST_DIV_UP 35
#define SOFTFP_PATH_FAST_DIV_TIE 36
#define SOFTFP_PATH_FAST_DIV_CARRY 37      /* unreachable: a quotient below 2 never rounds to 2 */
#define SOFTFP_PATH_FAST_DIV_DIGIT1_FIX 38 /* the first quotient digit's estimate was one low */
#define SOFTFP_PATH_FAST_DIV_DIGIT2_FIX 39 /* the second's */
#define SOFTFP_PATH_FAST_DIV_HALVED 40     /* the dividend's significand was below the divisor's */
#define SOFTFP_PATH_TERM_FAST_WEIGHT 41 /* the fast path's roundings for a truncated window (w < 2^16) */
#define SOFTFP_PATH_COUNT 42

typedef struct softfp {
  softfp_u64 sig; /* 0, or in [2^52, 2^53) */
  softfp_i32 exp; /* value = sig * 2^exp */
  softfp_i32 neg; /* 1: negative (also for -0) */
} softfp;

/* A signed 128-bit integer in two's complement, as two halves. */
typedef struct softfp_i128 {
  softfp_u64 lo;
  softfp_u64 hi;
} softfp_i128;

#define SOFTFP_HIDDEN ((softfp_u64)1 << 52)
#define SOFTFP_LIMIT ((softfp_u64)1 << 53)
/* Marks a result outside what the term can produce (division by zero). */
#define SOFTFP_INVALID_EXP 0x40000000

/* ---- primitives ---------------------------------------------------------- */

SOFTFP_FN softfp softfp_make(softfp_u64 sig, softfp_i32 exp, softfp_i32 neg) {
  softfp r;
  r.sig = sig;
  r.exp = exp;
  r.neg = neg;
  return r;
}

/* Leading zero bits of x != 0. */
SOFTFP_FN softfp_i32 softfp_clz64(softfp_u64 x) {
#if defined(__OPENCL_VERSION__)
  return (softfp_i32)clz(x);
#elif defined(__CUDA_ARCH__)
  return (softfp_i32)__clzll((long long)x);
#else
  return (softfp_i32)__builtin_clzll(x);
#endif
}

/* Leading zero bits of x != 0. */
SOFTFP_FN softfp_i32 softfp_clz32(softfp_u32 x) {
#if defined(__OPENCL_VERSION__)
  return (softfp_i32)clz(x);
#elif defined(__CUDA_ARCH__)
  return (softfp_i32)__clz((int)x);
#else
  return (softfp_i32)__builtin_clz(x);
#endif
}

/* x << n for n < 32 (two funnel shifts of 32-bit words on a GPU). */
SOFTFP_FN softfp_u64 softfp_shl64_below32(softfp_u64 x, softfp_u32 n) {
#if defined(__CUDA_ARCH__)
  const softfp_u32 lo = (softfp_u32)x, hi = (softfp_u32)(x >> 32);
  return ((softfp_u64)__funnelshift_l(lo, hi, n) << 32) | (softfp_u64)(lo << n);
#else
  return x << n;
#endif
}

/* Bits n to n + 31 of hi:lo, for 0 < n < 32 (a funnel shift on a GPU). */
SOFTFP_FN softfp_u32 softfp_funnel_r32(softfp_u32 lo, softfp_u32 hi, softfp_u32 n) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_r(lo, hi, n);
#else
  return (lo >> n) | (hi << (32 - n));
#endif
}

/* x >> n with every bit shifted out OR-ed into bit 0 ("jamming"), 1 <= n. The
 * jammed bit stands for "something below": it keeps the result off every
 * rounding boundary as long as it lies below the rounding position. */
SOFTFP_FN softfp_u64 softfp_shift_right_jam(softfp_u64 x, softfp_u32 n) {
  if (n >= 64) return x != 0 ? (softfp_u64)1 : (softfp_u64)0;
  return (x >> n) | (((x << (64 - n)) != 0) ? (softfp_u64)1 : (softfp_u64)0);
}

/* Rounds (m + f) * 2^e to 53 bits, nearest even, where m has its top bit at bit
 * 63 and 0 <= f < 1 with f != 0 exactly when `sticky`. */
SOFTFP_FN softfp softfp_round_top(softfp_i32 neg, softfp_u64 m, softfp_i32 e, softfp_i32 sticky) {
  softfp_u64 sig = m >> 11;
  const softfp_u64 rest = m & 0x7FF;
  if (rest > 0x400 || (rest == 0x400 && (sticky || (sig & 1)))) {
    SOFTFP_PATH(SOFTFP_PATH_ROUND_UP);
    if (rest == 0x400 && !sticky) SOFTFP_PATH(SOFTFP_PATH_ROUND_TIE);
    sig += 1;
    if (sig == SOFTFP_LIMIT) {
      SOFTFP_PATH(SOFTFP_PATH_ROUND_CARRY);
      sig = SOFTFP_HIDDEN;
      e += 1;
    }
  }
  return softfp_make(sig, e + 11, neg);
}

/* Rounds m * 2^e, m != 0 exact, to 53 bits. A jammed bit in m must lie at least
 * two bits below the 53rd bit counted from m's top bit; every caller keeps 8. */
SOFTFP_FN softfp softfp_round(softfp_i32 neg, softfp_u64 m, softfp_i32 e) {
  const softfp_i32 s = softfp_clz64(m);
  return softfp_round_top(neg, m << s, e - s, 0);
}

/* ---- conversions --------------------------------------------------------- */

/* v converted with rounding to nearest even; exact when v < 2^53 (every value
 * the term converts), and the single rounding of an exact integer product
 * below 2^64 (the binary64 product of two exactly converted factors). */
SOFTFP_FN softfp softfp_from_u64(softfp_u64 v) {
  if (v == 0) return softfp_make(0, 0, 0);
  return softfp_round(0, v, 0);
}

/* v < 2^53, converted exactly: normalising only, nothing rounds (the same
 * result as softfp_from_u64, fewer steps). */
SOFTFP_FN softfp softfp_from_u53(softfp_u64 v) {
  if (v == 0) return softfp_make(0, 0, 0);
  const softfp_i32 s = softfp_clz64(v) - 11;
  return softfp_make(v << s, -s, 0);
}

/* |v| < 2^53, exactly (softfp_from_i64's result, fewer steps). */
SOFTFP_FN softfp softfp_from_i53(softfp_i64 v) {
  softfp r = softfp_from_u53(v < 0 ? (softfp_u64)(-v) : (softfp_u64)v);
  r.neg = v < 0 ? 1 : 0;
  return r;
}

/* A signed integer with |v| < 2^63. */
SOFTFP_FN softfp softfp_from_i64(softfp_i64 v) {
  softfp r = softfp_from_u64(v < 0 ? (softfp_u64)(-v) : (softfp_u64)v);
  r.neg = v < 0 ? 1 : 0;
  return r;
}

/* A binary64 bit pattern (zero, subnormal or normal; not infinite or NaN). */
SOFTFP_FN softfp softfp_from_bits(softfp_u64 bits) {
  const softfp_i32 neg = (softfp_i32)(bits >> 63);
  const softfp_i32 biased = (softfp_i32)((bits >> 52) & 0x7FF);
  const softfp_u64 fraction = bits & (SOFTFP_HIDDEN - 1);
  if (biased != 0) return softfp_make(fraction | SOFTFP_HIDDEN, biased - 1075, neg);
  if (fraction == 0) return softfp_make(0, 0, neg);
  softfp r = softfp_round(neg, fraction, -1074); /* exact: fewer than 53 bits */
  return r;
}

/* True when x is zero or a normal binary64 number (see the top). */
SOFTFP_FN int softfp_is_valid(softfp x) {
  if (x.sig == 0) return 1;
  return x.sig >= SOFTFP_HIDDEN && x.sig < SOFTFP_LIMIT && x.exp >= -1074 && x.exp <= 971;
}

/* The binary64 bit pattern of a valid x. */
SOFTFP_FN softfp_u64 softfp_to_bits(softfp x) {
  const softfp_u64 sign = (softfp_u64)x.neg << 63;
  if (x.sig == 0) return sign;
  return sign | ((softfp_u64)(x.exp + 1075) << 52) | (x.sig & (SOFTFP_HIDDEN - 1));
}

/* ---- arithmetic ---------------------------------------------------------- */

/* 2 * x: the exponent moves, nothing rounds. */
SOFTFP_FN softfp softfp_twice(softfp x) {
  if (x.sig != 0) x.exp += 1;
  return x;
}

/* a + b. The larger magnitude goes first; both significands get 10 guard bits
 * (top bit at 62, bit 63 free for a carry), the smaller is shifted under the
 * larger with jamming. A gap of 0 or 1 shifts nothing out, so a difference is
 * exact however much cancels; a gap of 2 or more leaves at least 2^61, so
 * normalising moves the jammed bit by at most 2 places, still far below the
 * rounding bit (bit 10). */
SOFTFP_FN softfp softfp_add(softfp a, softfp b) {
  if (a.sig == 0 || b.sig == 0) {
    SOFTFP_PATH(SOFTFP_PATH_ADD_ZERO_OPERAND);
    if (a.sig != 0) return a;
    if (b.sig != 0) return b;
    return softfp_make(0, 0, a.neg & b.neg); /* -0 only for -0 + -0 */
  }
  if (b.exp > a.exp || (b.exp == a.exp && b.sig > a.sig)) {
    const softfp t = a;
    a = b;
    b = t;
  }
  const softfp_u32 gap = (softfp_u32)(a.exp - b.exp);
  const softfp_u64 am = a.sig << 10;
  softfp_u64 bm = b.sig << 10;
  if (gap != 0) bm = softfp_shift_right_jam(bm, gap);
  if (gap >= 64) SOFTFP_PATH(SOFTFP_PATH_ADD_ALL_STICKY);
  if (a.neg == b.neg) {
    SOFTFP_PATH(SOFTFP_PATH_ADD_SAME_SIGN);
    return softfp_round(a.neg, am + bm, a.exp - 10);
  }
  const softfp_u64 diff = am - bm;
  if (diff == 0) {
    SOFTFP_PATH(SOFTFP_PATH_SUB_TO_ZERO);
    return softfp_make(0, 0, 0); /* x - x = +0 under round to nearest */
  }
  if (gap <= 1) SOFTFP_PATH(SOFTFP_PATH_SUB_NEAR);
  else SOFTFP_PATH(SOFTFP_PATH_SUB_FAR);
  return softfp_round(a.neg, diff, a.exp - 10);
}

/* i * 2^k + c for c > 0 and an integer i < 2^64 with at most 53 significant bits
 * (so i * 2^k is a binary64 number): softfp_add(i * 2^k as softfp, c) in fewer
 * steps. Both are added as in softfp_add's same-sign case (top bits at 62, the
 * one with the smaller exponent shifted under the other with jamming), with i
 * aligned straight from its leading bit instead of being normalised to 53 bits
 * first (a top bit at 63 moves down one place: the bit lost is zero). Equal
 * exponents need no order: the sum is the same. */
SOFTFP_FN softfp softfp_add_int(softfp_u64 i, softfp_i32 k, softfp c) {
  SOFTFP_PATH(SOFTFP_PATH_ADD_INTEGER);
  if (i == 0) return c;
  const softfp_i32 n = softfp_clz64(i) - 1; /* i's top bit goes to bit 62 */
  const softfp_u64 im = n >= 0 ? i << n : i >> 1;
  const softfp_i32 ie = k - n;
  if (c.sig == 0) return softfp_round(0, im, ie);
  const softfp_u64 cm = c.sig << 10;
  const softfp_i32 ce = c.exp - 10;
  const int i_first = ie >= ce;
  const softfp_u64 big = i_first ? im : cm;
  softfp_u64 small = i_first ? cm : im;
  const softfp_i32 e = i_first ? ie : ce;
  const softfp_u32 gap = (softfp_u32)(i_first ? ie - ce : ce - ie);
  if (gap != 0) small = softfp_shift_right_jam(small, gap);
  return softfp_round(0, big + small, e);
}

/* (-1)^ineg * i * 2^k + c for c > 0 and an integer i < 2^64 with at most 53
 * significant bits: softfp_add on that pair in fewer steps. Aligned as in
 * softfp_add_int; the larger magnitude goes first, so a difference is exactly
 * softfp_add's (gap 0 or 1: exact; gap >= 2: the jammed bit stays far below the
 * rounding bit). */
SOFTFP_FN softfp softfp_add_int_signed(softfp_u64 i, softfp_i32 k, softfp_i32 ineg, softfp c) {
  SOFTFP_PATH(SOFTFP_PATH_ADD_INTEGER);
  if (i == 0) return c;
  const softfp_i32 n = softfp_clz64(i) - 1;
  const softfp_u64 im = n >= 0 ? i << n : i >> 1;
  const softfp_i32 ie = k - n;
  const softfp_u64 cm = c.sig << 10;
  const softfp_i32 ce = c.exp - 10;
  const int i_first = ie > ce || (ie == ce && im >= cm);
  const softfp_u64 big = i_first ? im : cm;
  softfp_u64 small = i_first ? cm : im;
  const softfp_i32 e = i_first ? ie : ce;
  const softfp_u32 gap = (softfp_u32)(i_first ? ie - ce : ce - ie);
  if (gap != 0) small = softfp_shift_right_jam(small, gap);
  if (!ineg) return softfp_round(0, big + small, e);
  const softfp_u64 diff = big - small;
  if (diff == 0) return softfp_make(0, 0, 0); /* x - x = +0 */
  return softfp_round(i_first ? 1 : 0, diff, e);
}

/* An integer value i * 2^k, i < 2^64 with at most 53 significant bits. */
typedef struct softfp_scaled {
  softfp_u64 i;
  softfp_i32 k;
} softfp_scaled;

/* i + c for an integer 0 <= i < 2^53 and c > 0. */
SOFTFP_FN softfp softfp_add_u53(softfp_u64 i, softfp c) { return softfp_add_int(i, 0, c); }

/* v < 2^64 - 2^10 rounded to 53 significant bits, nearest even, kept as an
 * integer: the value of softfp_from_u64(v), the binary64 conversion. */
SOFTFP_FN softfp_u64 softfp_round_int53(softfp_u64 v) {
  if (v < SOFTFP_LIMIT) return v;
  const softfp_u32 s = (softfp_u32)(11 - softfp_clz64(v)); /* bits below the 53: 1..11 */
  const softfp_u64 unit = (softfp_u64)1 << s;
  const softfp_u64 rest = v & (unit - 1);
  const softfp_u64 r = v - rest;
  const softfp_u64 halfway = unit >> 1;
  return rest > halfway || (rest == halfway && (r & unit)) ? r + unit : r;
}

/* The integer hi * 2^64 + lo (hi 0 or 1) below 2^65 - 2^12, rounded to 53
 * significant bits, nearest even, as i * 2^k. From 2^63 up it is halved first
 * (k = 1, the bit shifted out jammed into bit 0, ten or eleven bits below the
 * rounding position), so i < 2^64 - 2^11 and the rounding cannot carry out of
 * 64 bits. */
SOFTFP_FN softfp_scaled softfp_round_int65(softfp_u64 hi, softfp_u64 lo) {
  const int halve = hi != 0 || (lo >> 63) != 0;
  softfp_scaled r;
  r.i = softfp_round_int53(halve ? (hi << 63) | (lo >> 1) | (lo & 1) : lo);
  r.k = halve ? 1 : 0;
  return r;
}

SOFTFP_FN softfp softfp_sub(softfp a, softfp b) {
  b.neg ^= 1;
  return softfp_add(a, b);
}

/* a * b. A power-of-two factor (the common w = 2^16) only moves the exponent.
 * Otherwise the 106-bit significand product comes from four 32x32->64 limb
 * products (no 64x64 high-half instruction: fp64-free.md), and its top 64 bits
 * plus a sticky bit for the rest are rounded. */
SOFTFP_FN softfp softfp_mul(softfp a, softfp b) {
  const softfp_i32 neg = a.neg ^ b.neg;
  if (a.sig == 0 || b.sig == 0) {
    SOFTFP_PATH(SOFTFP_PATH_MUL_ZERO);
    return softfp_make(0, 0, neg);
  }
  if (a.sig == SOFTFP_HIDDEN || b.sig == SOFTFP_HIDDEN) {
    SOFTFP_PATH(SOFTFP_PATH_MUL_POW2);
    const softfp_u64 sig = a.sig == SOFTFP_HIDDEN ? b.sig : a.sig;
    return softfp_make(sig, a.exp + b.exp + 52, neg);
  }
  SOFTFP_PATH(SOFTFP_PATH_MUL_GENERAL);
  const softfp_u64 a0 = (softfp_u64)(softfp_u32)a.sig, a1 = a.sig >> 32; /* a1 < 2^21 */
  const softfp_u64 b0 = (softfp_u64)(softfp_u32)b.sig, b1 = b.sig >> 32;
  const softfp_u64 p00 = a0 * b0;
  const softfp_u64 mid = a0 * b1 + a1 * b0; /* < 2^54: no overflow */
  const softfp_u64 p11 = a1 * b1;
  const softfp_u64 lo = p00 + (mid << 32);
  const softfp_u64 hi = p11 + (mid >> 32) + (lo < p00 ? (softfp_u64)1 : (softfp_u64)0);
  /* The product is hi * 2^64 + lo with hi in [2^40, 2^42). */
  const softfp_i32 s = softfp_clz64(hi);
  const softfp_u64 top = (hi << s) | (lo >> (64 - s));
  const softfp_i32 sticky = (lo << s) != 0;
  return softfp_round_top(neg, top, a.exp + b.exp + 64 - s, sticky);
}

/* a / b for b != 0. Long division of the significands in three digits of 18,
 * 18 and 17 bits: 53 fraction bits after the leading 1. Each digit is estimated
 * in fp32 and then corrected with the exact remainder until
 * 0 <= remainder < divisor, so the result is the same whatever the rounding of
 * the fp32 estimate. The remainder after a digit, r * 2^bits - digit * y, can
 * need 71 bits while it is being corrected, so it is formed modulo 2^64 and read
 * as signed: that is its true value as long as the estimate lies within 2^9 of
 * the digit, and it lies within 1 (truncations and three fp32 roundings below
 * 2^-21 relative in all; any fp32 whose product and reciprocal are within 2^-12
 * relative would do). */
SOFTFP_FN softfp softfp_div(softfp a, softfp b) {
  const softfp_i32 neg = a.neg ^ b.neg;
  if (b.sig == 0) return softfp_make(1, SOFTFP_INVALID_EXP, neg); /* invalid */
  if (a.sig == 0) {
    SOFTFP_PATH(SOFTFP_PATH_DIV_ZERO);
    return softfp_make(0, 0, neg);
  }
  SOFTFP_PATH(SOFTFP_PATH_DIV_GENERAL);
  softfp_u64 x = a.sig;
  const softfp_u64 y = b.sig;
  softfp_i32 e = a.exp - b.exp;
  if (x < y) { /* make the quotient lie in [1, 2) */
    x <<= 1;
    e -= 1;
  }
  softfp_u64 q = 1;
  softfp_u64 r = x - y; /* 0 <= r < y < 2^53 */
  /* y >> 29 is in [2^23, 2^24): exact in fp32. With r >> 21 < 2^32, the digit
   * r * 2^bits / y is about (r >> 21) * reciprocal * 2^(bits - 8). */
  const float reciprocal = 1.0f / (float)(softfp_u32)(y >> 29);
  for (softfp_i32 i = 0; i < 3; ++i) {
    const softfp_i32 bits = i < 2 ? 18 : 17; /* 18 + 18 + 17 = 53 */
    const softfp_u32 max_digit = ((softfp_u32)1 << bits) - 1;
    const float scale = i < 2 ? 1024.0f : 512.0f; /* 2^(bits - 8), exact */
    const float estimate = (float)(softfp_u32)(r >> 21) * reciprocal * scale;
    softfp_u32 d = estimate >= (float)max_digit ? max_digit
                   : estimate > 0.0f            ? (softfp_u32)estimate
                                                : 0;
    /* r * 2^bits - d * y, modulo 2^64, read as signed (see above). */
    softfp_i64 rem = (softfp_i64)((r << bits) - (softfp_u64)d * y);
    while (rem < 0) {
      SOFTFP_PATH(SOFTFP_PATH_DIV_DIGIT_DOWN);
      d -= 1;
      rem += (softfp_i64)y;
    }
    while (rem >= (softfp_i64)y) {
      SOFTFP_PATH(SOFTFP_PATH_DIV_DIGIT_UP);
      d += 1;
      rem -= (softfp_i64)y;
    }
    r = (softfp_u64)rem;
    if (d == 0) SOFTFP_PATH(SOFTFP_PATH_DIV_DIGIT_ZERO);
    if (d == max_digit) SOFTFP_PATH(SOFTFP_PATH_DIV_DIGIT_MAX);
    q = (q << bits) | d;
  }
  /* q = floor(x * 2^53 / y) in [2^53, 2^54): 53 bits and the rounding bit;
   * the remainder r is the sticky bit. */
  softfp_u64 sig = q >> 1;
  e -= 52;
  if ((q & 1) && (r != 0 || (sig & 1))) {
    SOFTFP_PATH(SOFTFP_PATH_ROUND_UP);
    if (r == 0) SOFTFP_PATH(SOFTFP_PATH_ROUND_TIE);
    sig += 1;
    if (sig == SOFTFP_LIMIT) {
      SOFTFP_PATH(SOFTFP_PATH_ROUND_CARRY);
      sig = SOFTFP_HIDDEN;
      e += 1;
    }
  }
  return softfp_make(sig, e, neg);
}

/* ---- the exact sum's fixed point ----------------------------------------- */

/* round_half_even(x * 2^64) for |x| < 2^62, straight from sign, significand and
 * exponent (the twin of ssim::to_fixed64). */
SOFTFP_FN softfp_i128 softfp_to_fixed64(softfp x) {
  softfp_i128 q;
  const softfp_i32 shift = x.exp + 64; /* q = sig * 2^shift */
  if (x.sig != 0 && (softfp_u32)shift < 32) {
    /* The common case, |x| in [2^-12, 2^20) (a term is below 2^17): an exact
     * shift in 32-bit words, negated without a branch. */
    SOFTFP_PATH(SOFTFP_PATH_FIXED_SHIFT_LEFT);
    const softfp_u64 lo = softfp_shl64_below32(x.sig, (softfp_u32)shift);
    const softfp_u64 hi = (softfp_u64)(((softfp_u32)(x.sig >> 32) >> 1) >> (31 - shift));
    const softfp_u64 mask = (softfp_u64)0 - (softfp_u64)x.neg;
    q.lo = (lo ^ mask) + (softfp_u64)x.neg;
    q.hi = (hi ^ mask) + (q.lo < (softfp_u64)x.neg ? (softfp_u64)1 : (softfp_u64)0);
    return q;
  }
  q.lo = 0;
  q.hi = 0;
  if (x.sig == 0) return q;
  if (shift >= 0) {
    SOFTFP_PATH(SOFTFP_PATH_FIXED_SHIFT_LEFT);
    if (shift == 0) {
      q.lo = x.sig;
    } else if (shift < 64) {
      q.lo = x.sig << shift;
      q.hi = x.sig >> (64 - shift);
    } else {
      q.hi = x.sig << (shift - 64);
    }
  } else if (-shift > 54) {
    SOFTFP_PATH(SOFTFP_PATH_FIXED_TO_ZERO); /* sig * 2^-55 < 1/2 */
  } else {
    SOFTFP_PATH(SOFTFP_PATH_FIXED_ROUNDED);
    const softfp_u32 r = (softfp_u32)(-shift);
    softfp_u64 v = x.sig >> r;
    const softfp_u64 rest = x.sig & (((softfp_u64)1 << r) - 1);
    const softfp_u64 halfway = (softfp_u64)1 << (r - 1);
    if (rest > halfway || (rest == halfway && (v & 1))) v += 1;
    q.lo = v;
  }
  if (x.neg) {
    q.lo = ~q.lo + 1;
    q.hi = ~q.hi + (q.lo == 0 ? (softfp_u64)1 : (softfp_u64)0);
  }
  return q;
}

SOFTFP_FN softfp_i128 softfp_i128_add(softfp_i128 a, softfp_i128 b) {
  softfp_i128 s;
  s.lo = a.lo + b.lo;
  s.hi = a.hi + b.hi + (s.lo < a.lo ? (softfp_u64)1 : (softfp_u64)0);
  return s;
}

/* ---- the term of spec/ssim.md -------------------------------------------- */

typedef struct softfp_moments {
  softfp_u64 mux, muy; /* < 2^32 */
  softfp_u64 x2, xy, y2; /* < 2^48 */
  softfp_u64 w; /* <= 2^16 */
} softfp_moments;

/* (Md * Md) * K1 and (Md * Md) * K2 at a bit depth: the window-free part of c1,
 * c2; and the fast path's view of c1 = mm_k1 * 2^32 and c2 = mm_k2 * 2^32 (their
 * values at w = 2^16): c = c_int + c_frac2 / 2^(c_frac_bits + 1). */
typedef struct softfp_term_constants {
  softfp mm_k1;
  softfp mm_k2;
  softfp_i32 fast;                     /* 1: softfp_term_fast may run with these */
  softfp_u64 c1_int, c2_int;           /* floor(c1), floor(c2) */
  softfp_u32 c1_frac2, c2_frac2;       /* twice the fraction bits */
  softfp_i32 c1_frac_bits, c2_frac_bits; /* f: c1 * 2^f, c2 * 2^f are integers */
  softfp_u64 cov_limit;                /* |w * xy - mux * muy| below it: B's fixed point fits 64 bits */
} softfp_term_constants;

/* Trailing zero bits of x != 0. */
SOFTFP_FN softfp_i32 softfp_ctz64(softfp_u64 x) { return 63 - softfp_clz64(x & (~x + 1)); }

/* Fills the fast path's view of c1 and c2, the values of (mm_k * wd) * wd at
 * one weight w (positive and normal), beside mm_k1 and mm_k2. The fast path
 * needs f = -(exponent of c) in [1, 20] for both, so that c is below 2^52 and
 * at least 2^32. B = jb + c2's fraction is exact in a signed 64-bit fixed point
 * with f2 fraction bits while |jb| < 2^(63 - f2), which |cov| < cov_limit =
 * 2^(62 - f2) - 2^(52 - f2) ensures (c2's integer part is below 2^(53 - f2)). */
SOFTFP_FN softfp_term_constants softfp_fast_constants_of(softfp mm_k1, softfp mm_k2, softfp c1, softfp c2) {
  softfp_term_constants k;
  k.mm_k1 = mm_k1;
  k.mm_k2 = mm_k2;
  const softfp_i32 f1 = -c1.exp, f2 = -c2.exp;
  k.fast = c1.sig != 0 && c2.sig != 0 && f1 >= 1 && f1 <= 20 && f2 >= 1 && f2 <= 20;
  if (!k.fast) {
    k.c1_int = k.c2_int = 0;
    k.c1_frac2 = k.c2_frac2 = 0;
    k.c1_frac_bits = k.c2_frac_bits = 0;
    k.cov_limit = 0;
    return k;
  }
  k.c1_int = c1.sig >> f1;
  k.c2_int = c2.sig >> f2;
  k.c1_frac2 = (softfp_u32)(c1.sig & (((softfp_u64)1 << f1) - 1)) << 1;
  k.c2_frac2 = (softfp_u32)(c2.sig & (((softfp_u64)1 << f2) - 1)) << 1;
  k.c1_frac_bits = f1;
  k.c2_frac_bits = f2;
  k.cov_limit = ((softfp_u64)1 << (62 - f2)) - ((softfp_u64)1 << (52 - f2));
  return k;
}

/* Fills the constants from mm_k1 and mm_k2 (positive and normal); the fast
 * path's view is that of w = 2^16, where c1 = mm_k1 * 2^32 and c2 = mm_k2 * 2^32
 * exactly. softfp_term_fast does not check B per window, so here the fast path
 * also needs c2 * 2 not to be an integer, so that B = c2 + 2 * cov is never 0
 * (true from 8 to 14 bits; c2 is an odd integer at 14 bits). */
SOFTFP_FN softfp_term_constants softfp_term_constants_of(softfp mm_k1, softfp mm_k2) {
  const softfp c2 = softfp_make(mm_k2.sig, mm_k2.exp + 32, 0);
  softfp_term_constants k = softfp_fast_constants_of(mm_k1, mm_k2, softfp_make(mm_k1.sig, mm_k1.exp + 32, 0), c2);
  k.fast = k.fast && softfp_ctz64(c2.sig) <= k.c2_frac_bits;
  return k;
}

SOFTFP_FN softfp_term_constants softfp_make_term_constants(softfp_i32 bitdepth) {
  const softfp p01 = softfp_from_bits(SOFTFP_U64_C(0x3F847AE147AE147B)); /* the literal 0.01 */
  const softfp p03 = softfp_from_bits(SOFTFP_U64_C(0x3F9EB851EB851EB8)); /* the literal 0.03 */
  const softfp md = softfp_from_u64(((softfp_u64)1 << bitdepth) - 1);
  const softfp mm = softfp_mul(md, md);
  return softfp_term_constants_of(softfp_mul(mm, softfp_mul(p01, p01)),
                                  softfp_mul(mm, softfp_mul(p03, p03)));
}

/* The binary64 constants from their bit patterns (the OpenCL kernel's arguments). */
SOFTFP_FN softfp_term_constants softfp_term_constants_from_bits(softfp_u64 mm_k1_bits,
                                                                softfp_u64 mm_k2_bits) {
  return softfp_term_constants_of(softfp_from_bits(mm_k1_bits), softfp_from_bits(mm_k2_bits));
}

/* The shortcut applies when every integer part of the term is an exact integer
 * below 2^53 in binary64: mux, muy < 2^26 (so their products are below 2^52)
 * and x2*w, xy*w, y2*w < 2^52 (so each partial sum of D stays below 2^53).
 * Then mx2 + my2, xy*wd - mxy and the first three steps of D are exact integer
 * arithmetic, which binary64 reproduces without rounding. */
SOFTFP_FN int softfp_term_integer_shortcut_applies(softfp_moments m) {
  const softfp_u64 limit = (softfp_u64)1 << 52;
  return m.mux < ((softfp_u64)1 << 26) && m.muy < ((softfp_u64)1 << 26) &&
         m.x2 * m.w < limit && m.xy * m.w < limit && m.y2 * m.w < limit;
}

/* The binary64 term, operation for operation as spec/ssim.md writes it; the
 * integer shortcut only where softfp_term_integer_shortcut_applies(). A product
 * of two exactly converted integers is the one rounding of their exact integer
 * product (below 2^64 by the bounds on mux, x2, w), so it is formed in integers. */
SOFTFP_FN softfp softfp_term_with(softfp_moments m, softfp_term_constants k, int integer_shortcut) {
  const softfp wd = softfp_from_u53(m.w);
  /* w = 2^l (2^16 for every window no border truncates): multiplying by wd only
   * adds l to the exponent (softfp_mul's power-of-two case, exact), so c1, c2
   * and wd * A are formed that way; k.mm_k1, k.mm_k2 and A are positive. */
  const int w_pow2 = m.w != 0 && (m.w & (m.w - 1)) == 0;
  const softfp_i32 l = 63 - softfp_clz64(m.w | 1);
  softfp c1, c2;
  if (w_pow2) {
    SOFTFP_PATH(SOFTFP_PATH_TERM_POW2_WEIGHT);
    c1 = softfp_make(k.mm_k1.sig, k.mm_k1.exp + 2 * l, 0);
    c2 = softfp_make(k.mm_k2.sig, k.mm_k2.exp + 2 * l, 0);
  } else {
    c1 = softfp_mul(softfp_mul(k.mm_k1, wd), wd);
    c2 = softfp_mul(softfp_mul(k.mm_k2, wd), wd);
  }
  softfp a, b, c, d;
  if (integer_shortcut) {
    SOFTFP_PATH(SOFTFP_PATH_TERM_INTEGER);
    const softfp_i64 mx2 = (softfp_i64)(m.mux * m.mux);
    const softfp_i64 mxy = (softfp_i64)(m.mux * m.muy);
    const softfp_i64 my2 = (softfp_i64)(m.muy * m.muy);
    /* Each integer is below 2^53 in magnitude: converted exactly. Those of A, C
     * and D are not negative (D's is w^2 times the two windows' variances: by
     * Cauchy-Schwarz w * x2 >= mux^2, for the moments of any real window); c1,
     * c2 > 0. */
    const softfp_i64 dint = (((softfp_i64)(m.x2 * m.w) - mx2) + (softfp_i64)(m.y2 * m.w)) - my2;
    const softfp_i64 cov = (softfp_i64)(m.xy * m.w) - mxy;
    a = softfp_add_int((softfp_u64)mxy, 1, c1);
    b = softfp_add_int_signed(cov < 0 ? (softfp_u64)(-cov) : (softfp_u64)cov, 1, cov < 0, c2);
    c = softfp_add_int((softfp_u64)(mx2 + my2), 0, c1);
    d = softfp_add_int((softfp_u64)dint, 0, c2);
  } else {
    SOFTFP_PATH(SOFTFP_PATH_TERM_GENERAL);
    /* Every product of two converted integers is an integer below 2^64 - 2^11
     * (mux, muy < 2^32; x2 * w <= M^2 * w^2 <= (2^16 - 1)^2 * 2^32), and so is its
     * rounding, kept as an integer. A difference or sum of two such integers is
     * exact in 65 bits and rounded once, as binary64 rounds it. mx2 <= x2*wd:
     * w * x2 >= mux^2 (Cauchy-Schwarz; w^2 times the variance) and rounding
     * keeps that order. */
    const softfp_u64 mx2 = softfp_round_int53(m.mux * m.mux);
    const softfp_u64 mxy = softfp_round_int53(m.mux * m.muy);
    const softfp_u64 my2 = softfp_round_int53(m.muy * m.muy);
    const softfp_u64 x2w = softfp_round_int53(m.x2 * m.w);
    const softfp_u64 xyw = softfp_round_int53(m.xy * m.w);
    const softfp_u64 y2w = softfp_round_int53(m.y2 * m.w);
    a = softfp_add_int(mxy, 1, c1);
    const int cov_neg = xyw < mxy;
    b = softfp_add_int_signed(softfp_round_int53(cov_neg ? mxy - xyw : xyw - mxy), 1, cov_neg, c2);
    const softfp_u64 sum2 = mx2 + my2;
    const softfp_scaled sq = softfp_round_int65(sum2 < mx2 ? 1 : 0, sum2);
    c = softfp_add_int(sq.i, sq.k, c1);
    const softfp_u64 t1 = softfp_round_int53(x2w - mx2);
    const softfp_u64 t2 = t1 + y2w;
    const softfp_scaled t2r = softfp_round_int65(t2 < t1 ? 1 : 0, t2);
    /* t2r - my2 >= 0 (the same order argument), exact in 65 bits. */
    const softfp_u64 t2_hi = t2r.k ? t2r.i >> 63 : 0;
    const softfp_u64 t2_lo = t2r.k ? t2r.i << 1 : t2r.i;
    const softfp_u64 t3_lo = t2_lo - my2;
    const softfp_scaled t3 = softfp_round_int65(t2_hi - (t2_lo < my2 ? 1 : 0), t3_lo);
    d = softfp_add_int(t3.i, t3.k, c2);
  }
  softfp wa;
  if (w_pow2) {
    wa = a;
    if (wa.sig != 0) wa.exp += l;
  } else {
    wa = softfp_mul(wd, a);
  }
  return softfp_div(softfp_mul(wa, b), softfp_mul(c, d));
}

/* ---- the fast path --------------------------------------------------------
 * For the windows no border truncates (w = 2^16) whose integer parts are exact
 * (the integer shortcut's bounds: mux, muy < 2^26, x2, xy, y2 < 2^36; every
 * window of a real 8- to 10-bit frame): the same roundings as softfp_term_with,
 * without a data-dependent branch, mostly in 32-bit words. Each of A, C, D is
 * one rounding of an exact integer J (below 2^54, the constant's integer part
 * included) plus the constant's fraction; B is one rounding of an exact 64-bit
 * fixed point; the products take the top of a 106-bit product; the quotient
 * comes from a reciprocal and two digits, corrected once at the end. */

/* About 1 / v in fp32. Only an estimate: softfp_fast_div needs it within 2^-16
 * relative, which every fp32 reciprocal meets (OpenCL's 1.0f / v: 2.5 ulp).
 * The tests #define SOFTFP_RECIPROCAL_ESTIMATE(v) to try the worst allowed. */
SOFTFP_FN float softfp_reciprocal_estimate(float v) {
#if defined(SOFTFP_RECIPROCAL_ESTIMATE)
  return SOFTFP_RECIPROCAL_ESTIMATE(v);
#elif defined(__CUDA_ARCH__)
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
#else
  return 1.0f / v;
#endif
}

/* A significand of 2^53 (softfp_fast_integer_plus_addend's carry) as 2^52 and
 * the exponent one up; the low word is then 0. */
SOFTFP_FN softfp softfp_fast_normalize(softfp x) {
  const softfp_u32 carry = (softfp_u32)(x.sig >> 53);
  x.sig = ((softfp_u64)((softfp_u32)(x.sig >> 32) >> carry) << 32) | (softfp_u32)x.sig;
  x.exp += (softfp_i32)carry;
  return x;
}

/* Rounds (x + t) * 2^e to 53 bits, nearest even, for 2^53 <= x < 2^54 and
 * 0 <= t < 1, t != 0 exactly when `sticky`: x's low bit is the rounding bit.
 * `up` names the stage's three path counters (up, tie, carry). A carry leaves
 * 2^53, whose low word is 0: halving the high word alone normalises it. */
SOFTFP_FN softfp softfp_fast_round54(softfp_u64 x, softfp_u32 sticky, softfp_i32 e, int up) {
  const softfp_u32 round_bit = (softfp_u32)x & 1;
  const softfp_u32 increment = round_bit & (sticky | ((softfp_u32)(x >> 1) & 1));
  const softfp_u64 sig = (x >> 1) + increment;
  if (increment) SOFTFP_PATH(up);
  if (increment && !sticky) SOFTFP_PATH(up + 1);
  if (sig >> 53) SOFTFP_PATH(up + 2);
  (void)up;
  return softfp_fast_normalize(softfp_make(sig, e + 1, 0));
}

/* k = 53 - top(j) for 2^32 <= j < 2^54: the shift that puts j's top bit at bit 53. */
SOFTFP_FN softfp_u32 softfp_fast_shift_of(softfp_u64 j) {
  return (softfp_u32)(softfp_clz32((softfp_u32)(j >> 32)) - 10);
}

/* j + frac2 / 2^(f+1) rounded, for an integer j with 2^(52-f) <= j < 2^54 and
 * j >= 2^32 (it holds the constant's integer part) and even frac2 < 2^(f+1),
 * 1 <= f <= 20: A, C and D. With k = 53 - top(j), in [0, f+1], x = j * 2^k plus
 * the fraction's top k bits is floor(value * 2^k), 54 bits; the fraction's other
 * s = f+1-k bits (s in [0, 21]) decide the sticky bit. */
SOFTFP_FN softfp softfp_fast_integer_plus_fraction(softfp_u64 j, softfp_u32 frac2, softfp_i32 f) {
  const softfp_u32 k = softfp_fast_shift_of(j);
  const softfp_u32 s = (softfp_u32)(f + 1) - k;
  const softfp_u64 x = softfp_shl64_below32(j, k) | (softfp_u64)(frac2 >> s);
  const softfp_u32 sticky = (frac2 & ((1u << s) - 1)) != 0;
  return softfp_fast_round54(x, sticky, -(softfp_i32)k, SOFTFP_PATH_FAST_SUM_UP);
}

/* The same rounding with the constant fraction's part precomputed: for
 * k = 53 - top(j) >= 2 (j below 2^52) the rounded significand is
 * j * 2^(k-1) + G(k), where G(k) = round_half_even(frac * 2^(k-1)) (frac = frac2 /
 * 2^(f+1)) depends on k alone: j * 2^(k-1) is even, so a tie goes the way of
 * G's own parity. A device keeps G(2..f+1) in a table and saves the rounding's
 * bit work; softfp_fast_addend computes the entries. */
SOFTFP_FN softfp_u32 softfp_fast_addend(softfp_u32 frac2, softfp_i32 f, softfp_u32 k) {
  const softfp_u32 s = (softfp_u32)(f + 2) - k; /* frac * 2^(k-1) = frac2 / 2^s, s in [1, f] */
  const softfp_u32 whole = frac2 >> s;
  const softfp_u32 rest = frac2 & ((1u << s) - 1), halfway = 1u << (s - 1); /* not `half`: an OpenCL type */
  return whole + (rest > halfway || (rest == halfway && (whole & 1)) ? 1u : 0u);
}

/* j + frac2 / 2^(f+1) rounded, from k = softfp_fast_shift_of(j) >= 2 and
 * addend = softfp_fast_addend(frac2, f, k): the value of
 * softfp_fast_integer_plus_fraction, but with a significand in [2^52, 2^53]:
 * a rounding that carries leaves 2^53 (unnormalised), which softfp_fast_mul
 * takes as it is and softfp_fast_normalize turns into a normal softfp. */
SOFTFP_FN softfp softfp_fast_integer_plus_addend(softfp_u64 j, softfp_u32 k, softfp_u32 addend) {
  return softfp_make((j << (k - 1)) + addend, 1 - (softfp_i32)k, 0);
}

/* softfp_fast_addend for every k in [2, 21] (every j >= 2^32 below 2^52): where
 * k > f + 1 the fraction times 2^(k-1) is an integer, so exact. frac2 may be
 * 2^(f+1) (the complement of a zero fraction; see softfp_fast_signed_plus_fraction). */
SOFTFP_FN softfp_u32 softfp_fast_addend_wide(softfp_u32 frac2, softfp_i32 f, softfp_u32 k) {
  return k <= (softfp_u32)(f + 1) ? softfp_fast_addend(frac2, f, k) : frac2 << (k - (softfp_u32)f - 2);
}

/* B's table form: jb + frac2 / 2^(f+1) rounded, for a signed integer jb (2 cov
 * plus c2's integer part) with 2^32 <= j < 2^52, where j = jb for jb >= 0 and
 * j = ~jb = |jb| - 1 below: then |B| = j + (1 - frac), the complement's addend
 * (2^(f+1) - frac2) doing for a negative B what frac2's does for a positive one.
 * The significand lies in [2^52, 2^53] as softfp_fast_integer_plus_addend's. */
SOFTFP_FN softfp softfp_fast_signed_plus_fraction(softfp_u64 jb, softfp_u32 frac2, softfp_i32 f) {
  const softfp_u64 mask = (softfp_u64)((softfp_i64)jb >> 63);
  const softfp_u64 j = jb ^ mask;
  const softfp_u32 k = softfp_fast_shift_of(j);
  const softfp_u32 addend = softfp_fast_addend_wide(mask ? ((softfp_u32)2 << f) - frac2 : frac2, f, k);
  softfp r = softfp_fast_integer_plus_addend(j, k, addend);
  r.neg = (softfp_i32)(mask & 1);
  return r;
}

/* m / 2^f rounded, for an integer 0 < m < 2^64: m's top bit goes to bit 63, the
 * next 53 bits and the rounding bit are kept, the low 10 are the sticky bit. */
SOFTFP_FN softfp softfp_fast_fixed_point(softfp_u64 m, softfp_i32 f, softfp_i32 neg) {
  const softfp_i32 n = softfp_clz64(m);
  const softfp_u64 top = m << n;
  softfp r = softfp_fast_round54(top >> 10, (top & 0x3FF) != 0, 10 - n - f, SOFTFP_PATH_FAST_B_UP);
  r.neg = neg;
  return r;
}

/* a * b for normal a, b: the 106-bit product of the significands from 32-bit
 * limbs has its top at bit 104 + top, top 0 or 1; the 53 bits from there down
 * are kept, rounded by the bits below. A significand may also be exactly 2^53
 * (softfp_fast_integer_plus_addend): one such operand keeps the product below
 * 2^106; two make it exactly 2^106, top = 2, every bit below the kept ones 0. */
SOFTFP_FN softfp softfp_fast_mul(softfp a, softfp b) {
  const softfp_u32 a0 = (softfp_u32)a.sig, a1 = (softfp_u32)(a.sig >> 32);
  const softfp_u32 b0 = (softfp_u32)b.sig, b1 = (softfp_u32)(b.sig >> 32);
#if defined(__CUDA_ARCH__)
  /* The same words through the carry flag: four fewer instructions than what
   * nvcc makes of the portable form (tested by the CUDA tests' sums). */
  softfp_u32 low, mid, w2, w3;
  asm("mul.lo.u32 %0, %4, %6;\n\t"
      "mul.hi.u32 %1, %4, %6;\n\t"
      "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
      "madc.hi.u32 %2, %4, %7, 0;\n\t"
      "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
      "madc.hi.cc.u32 %2, %5, %6, %2;\n\t"
      "madc.hi.u32 %3, %5, %7, 0;\n\t"
      "mad.lo.cc.u32 %2, %5, %7, %2;\n\t"
      "addc.u32 %3, %3, 0;"
      : "=r"(low), "=r"(mid), "=r"(w2), "=r"(w3)
      : "r"(a0), "r"(a1), "r"(b0), "r"(b1));
#else
  /* Column by column, each carry taken along in a 64-bit partial sum (no
   * compare): a0 * b1 + 2^32 - 1 < 2^64, and so on. */
  const softfp_u64 p00 = (softfp_u64)a0 * b0;
  const softfp_u64 t1 = (softfp_u64)a0 * b1 + (p00 >> 32);            /* < 2^54 */
  const softfp_u64 t2 = (softfp_u64)a1 * b0 + (softfp_u32)t1;         /* < 2^54 */
  const softfp_u64 hi = (softfp_u64)a1 * b1 + (t1 >> 32) + (t2 >> 32); /* bits 64.., < 2^42 */
  const softfp_u32 mid = (softfp_u32)t2, low = (softfp_u32)p00;        /* bits 32..63, 0..31 */
  const softfp_u32 w2 = (softfp_u32)hi, w3 = (softfp_u32)(hi >> 32);
#endif
  /* The significand is bits 52 + top and up (two funnel shifts of 32-bit
   * words), the rounding bit is bit 51 + top (moved to bit 31 of rs) and the
   * sticky bits are the ones below it. */
  const softfp_u32 top = w3 >> 9; /* the product's top bit is 104 + top */
  const softfp_u32 kept_lo = softfp_funnel_r32(mid, w2, 20 + top), kept_hi = softfp_funnel_r32(w2, w3, 20 + top);
  const softfp_u32 rs = mid << (12 - top);
  const softfp_u32 sticky = ((rs << 1) | low) != 0;
  const softfp_u32 increment = (rs >> 31) & (sticky | (kept_lo & 1));
  const softfp_u64 sig = (((softfp_u64)kept_hi << 32) | kept_lo) + increment;
  if (increment) SOFTFP_PATH(SOFTFP_PATH_FAST_MUL_UP);
  if (increment && !sticky) SOFTFP_PATH(SOFTFP_PATH_FAST_MUL_TIE);
  if (sig >> 53) SOFTFP_PATH(SOFTFP_PATH_FAST_MUL_CARRY);
  return softfp_fast_normalize(softfp_make(sig, a.exp + b.exp + 52 + (softfp_i32)top, a.neg ^ b.neg));
}

/* a / b for normal a, b. With x = a's significand (doubled when below y, b's)
 * y <= x < 2y, and q = floor(x * 2^53 / y) in [2^53, 2^54) is formed as two
 * digits from R, a 32-bit reciprocal of y's top 32 bits plus one:
 * R <= 2^63 / (y_top + 1) < R + 2.001 (an fp32 estimate e within 2^-16, then
 * one integer Newton step, which leaves 2^32 e^2 <= 1, every truncation
 * downward). Every approximation in a digit's estimate is then low, by at most
 * 2^28 * 3 * 2^-31 + 2^-3, about 0.5 of a unit in all, so the estimate is the digit
 * or one less. The first digit's remainder (formed modulo
 * 2^64; its true value in [0, 2y)) goes uncorrected into the second digit,
 * which then lies in [0, 2^28) and absorbs the first's shortfall; the second's
 * shortfall is taken into the rounding, which needs no corrected digit. A quotient
 * below 2 never rounds up to 2 (x <= 2y - 1 puts q at most at 2^54 - 2), so
 * the rounding never carries. */
SOFTFP_FN softfp softfp_fast_div(softfp a, softfp b) {
  const softfp_u64 y = b.sig;
  const softfp_u32 halve = a.sig < y;
  if (halve) SOFTFP_PATH(SOFTFP_PATH_FAST_DIV_HALVED);
  const softfp_u64 x = a.sig << halve;
  const softfp_u32 y_top = (softfp_u32)(y >> 21); /* [2^31, 2^32) */
  const float estimate = softfp_reciprocal_estimate((float)y_top) * 9223372036854775808.0f; /* 2^63 */
  /* r0 in [2^31, 2^32), where 2^63 / (y_top + 1) lies too: a clamp only brings
   * the estimate closer. (CUDA's conversion saturates at 2^32 - 1.) */
#if defined(__CUDA_ARCH__)
  const softfp_u32 r0 = __float2uint_rz(fmaxf(estimate, 2147483648.0f));
#else
  const softfp_u32 r0 = (softfp_u32)(estimate < 2147483648.0f   ? 2147483648.0f
                                     : estimate < 4294967040.0f ? estimate
                                                                : 4294967040.0f); /* the largest fp32 below 2^32 */
#endif
  /* Newton: R = r0 + r0 * (2^63 - (y_top + 1) * r0) / 2^63, the residual first
   * cut to 32 bits: |residual| <= 2^63 * 2^-16 = 2^47 for an estimate within
   * 2^-16. Its bits 17 to 48 are those of p = (y_top + 1) * r0 < 2^64 (2^63
   * only flips bit 63): p's bits there are floor(-residual / 2^17) as a signed
   * word, and their complement, ceil(residual / 2^17) - 1, is residual / 2^17
   * truncated downward by less than one. */
  const softfp_u64 p = (softfp_u64)y_top * r0 + r0;
  const softfp_i32 residual17 = (softfp_i32)~(softfp_u32)(p >> 17);
#if defined(__CUDA_ARCH__)
  /* floor(r0 * residual17 / 2^32) from a signed high product: r0 read as a
   * signed word is r0 - 2^32 (r0 >= 2^31). */
  const softfp_u32 reciprocal = r0 + (softfp_u32)((__mulhi((int)r0, residual17) + residual17) >> 14);
#else
  const softfp_u32 reciprocal = (softfp_u32)((softfp_i64)r0 + (((softfp_i64)r0 * residual17) >> 46));
#endif
  /* Digit 1: floor(x * 2^26 / y) in [2^26, 2^27), or one less. */
  const softfp_u32 q1 = SOFTFP_MULHI32((softfp_u32)(x >> 22), reciprocal) >> 4;
  const softfp_u64 r1 = (x << 26) - (softfp_u64)q1 * y;
  if (r1 >= y) SOFTFP_PATH(SOFTFP_PATH_FAST_DIV_DIGIT1_FIX);
  /* Digit 2: floor(r1 * 2^27 / y) in [0, 2^28) (r1 < 2y < 2^54: its top 32
   * bits from bit 22), or one less: q = q1 * 2^27 + q2 is the quotient or one
   * less, and x * 2^53 / y = q + r2 / y with r2 in [0, 2y). */
  const softfp_u32 q2 = SOFTFP_MULHI32((softfp_u32)(r1 >> 22), reciprocal) >> 3;
  const softfp_u64 r2 = (r1 << 27) - (softfp_u64)q2 * y;
  if (r2 >= y) SOFTFP_PATH(SOFTFP_PATH_FAST_DIV_DIGIT2_FIX);
  /* The rounding without correcting q first: with s = q >> 1 and z = (q & 1)
   * + r2 / y in [0, 3), the result is s + round(z / 2), z / 2 below 3/2: up
   * when z > 1, or z = 1 and s odd. For the integer u = (q & 1) y + r2 - y,
   * that is u > 0, or u = 0 and s odd: u + (s & 1) - 1 >= 0. */
  const softfp_u32 odd = (q2 >> 1) & 1;
  const softfp_i64 u = (softfp_i64)(r2 - ((q2 & 1) ? 0 : y)) + (softfp_i64)odd - 1;
  const softfp_u32 increment = u >= 0;
  if (increment) SOFTFP_PATH(SOFTFP_PATH_FAST_DIV_UP);
  if (increment && u + 1 - (softfp_i64)odd == 0) SOFTFP_PATH(SOFTFP_PATH_FAST_DIV_TIE);
  const softfp_u64 sig = ((softfp_u64)q1 << 26) + ((q2 >> 1) + increment);
  if (sig >> 53) SOFTFP_PATH(SOFTFP_PATH_FAST_DIV_CARRY);
  return softfp_make(sig, a.exp - b.exp - (softfp_i32)halve - 52, a.neg ^ b.neg);
}

/* Whether softfp_term_fast applies: the constants allow it (see
 * softfp_term_constants_of), w = 2^16, the integer shortcut's bounds, D's
 * integer part not negative (Cauchy-Schwarz for any real window) and
 * |w * xy - mux * muy| below cov_limit (about 2^47 at 8 bits, 2^51 at 10 bits:
 * a real window's |cov| is at most w^2 (M / 2)^2, below both). */
SOFTFP_FN int softfp_term_fast_applies(softfp_moments m, softfp_term_constants k) {
  /* Every part computed without a branch, as softfp_term_fast computes it, so
   * that a compiler that inlines both forms each once. */
  const softfp_u32 mux = (softfp_u32)m.mux, muy = (softfp_u32)m.muy;
  const softfp_u64 mxy = (softfp_u64)mux * muy;
  const softfp_u64 cov = (m.xy << 16) - mxy;
  const softfp_u64 cov_abs = (softfp_i64)cov < 0 ? ~cov + 1 : cov;
  const softfp_u64 dint = (m.x2 << 16) - (softfp_u64)mux * mux + (m.y2 << 16) - (softfp_u64)muy * muy;
  return k.fast & (m.w == 65536) & ((m.mux | m.muy) < ((softfp_u64)1 << 26)) &
         ((m.x2 | m.xy | m.y2) < ((softfp_u64)1 << 36)) & ((softfp_i64)dint >= 0) & (cov_abs < k.cov_limit);
}

/* The fast term in parts, so that a device may round A, B, C and D its own
 * way (softfp_fast_integer_plus_addend, softfp_fast_signed_plus_fraction)
 * around the same integers, products and quotient. The integer parts as
 * multiply-adds (2 muy < 2^27): A's and C's with c1's integer part, D's from
 * C's (mx2 + my2 = jc - c1_int), and B's from A's (2 mxy = ja - c1_int); every
 * value is exact modulo 2^64 and in range (softfp_term_fast_applies). */
typedef struct softfp_fast_integers {
  softfp_u64 ja, jc, jd; /* the integer parts of A, C, D, each constant's included */
  softfp_u64 jb;         /* 2 (w xy - mux muy) + c2's integer part, two's complement */
} softfp_fast_integers;

SOFTFP_FN softfp_fast_integers softfp_fast_integers_of(softfp_moments m, softfp_term_constants k) {
  const softfp_u32 mux = (softfp_u32)m.mux, muy = (softfp_u32)m.muy; /* < 2^26 */
  softfp_fast_integers r;
  r.ja = (softfp_u64)mux * (muy << 1) + k.c1_int;
  r.jc = (softfp_u64)muy * muy + ((softfp_u64)mux * mux + k.c1_int);
  r.jd = (((m.x2 + m.y2) << 16) + (k.c1_int + k.c2_int)) - r.jc;
  r.jb = ((m.xy << 17) + (k.c1_int + k.c2_int)) - r.ja;
  return r;
}

/* B = (jb * 2^f2 + c2's fraction bits) / 2^f2, exact in a signed 64-bit
 * integer (|cov| < cov_limit), never 0 (softfp_term_constants_of, softfp_term_fast_weight_applies). */
SOFTFP_FN softfp softfp_fast_b(softfp_u64 jb, softfp_term_constants k) {
  const softfp_u64 fraction = k.c2_frac2 >> 1;
  const softfp_i64 bn = (softfp_i64)((jb << k.c2_frac_bits) + fraction);
  const softfp_u64 b_sign = (softfp_u64)(bn >> 63); /* all ones when negative */
  return softfp_fast_fixed_point(((softfp_u64)bn ^ b_sign) - b_sign, k.c2_frac_bits, (softfp_i32)(b_sign & 1));
}

/* ((w A) B) / (C D) with w = 2^16. */
SOFTFP_FN softfp softfp_fast_quotient(softfp a, softfp b, softfp c, softfp d) {
  a.exp += 16;
  return softfp_fast_div(softfp_fast_mul(a, b), softfp_fast_mul(c, d));
}

/* A, B, C and D rounded from their integer parts and the constants' fractions. */
typedef struct softfp_fast_parts {
  softfp a, b, c, d;
} softfp_fast_parts;

SOFTFP_FN softfp_fast_parts softfp_fast_parts_of(softfp_fast_integers j, softfp_term_constants k) {
  softfp_fast_parts p;
  p.a = softfp_fast_integer_plus_fraction(j.ja, k.c1_frac2, k.c1_frac_bits);
  p.c = softfp_fast_integer_plus_fraction(j.jc, k.c1_frac2, k.c1_frac_bits);
  p.d = softfp_fast_integer_plus_fraction(j.jd, k.c2_frac2, k.c2_frac_bits);
  p.b = softfp_fast_b(j.jb, k);
  return p;
}

/* The term where softfp_term_fast_applies(m, k): the same bits as
 * softfp_term_with. Every integer part is exact (as in the integer shortcut),
 * c1 = mm_k1 * 2^32 and c2 = mm_k2 * 2^32 exactly, and wd * A = A * 2^16. */
SOFTFP_FN softfp softfp_term_fast(softfp_moments m, softfp_term_constants k) {
  SOFTFP_PATH(SOFTFP_PATH_TERM_FAST);
  const softfp_fast_parts p = softfp_fast_parts_of(softfp_fast_integers_of(m, k), k);
  return softfp_fast_quotient(p.a, p.b, p.c, p.d);
}

/* ---- the fast path for truncated windows -----------------------------------
 * A window a border truncates (w < 2^16, not a power of two in general) has
 * c1 = (mm_k1 * wd) * wd and c2 likewise, two rounded products each, which
 * depend on w alone; once they are formed (softfp_weight_constants), the term is
 * softfp_term_fast's sequence with w's products in place of its shifts and one
 * rounded product w * A in place of A's exponent moving by 16. */

/* The fast path's constants at weight w (1 <= w < 2^53): c1 and c2 formed as
 * binary64 forms them (softfp_fast_mul, exact for normal operands). */
SOFTFP_FN softfp_term_constants softfp_weight_constants(softfp_term_constants k, softfp_u64 w) {
  const softfp wd = softfp_from_u53(w);
  return softfp_fast_constants_of(k.mm_k1, k.mm_k2, softfp_fast_mul(softfp_fast_mul(k.mm_k1, wd), wd),
                                  softfp_fast_mul(softfp_fast_mul(k.mm_k2, wd), wd));
}

/* The integer shortcut's bounds (softfp_term_integer_shortcut_applies) with
 * room for softfp_fast_integers_of_weight's sums: every integer part exact and
 * below 2^54, products of w below 2^64. Checked before the constants are formed. */
SOFTFP_FN int softfp_term_fast_weight_moments(softfp_moments m) {
  const softfp_u64 limit = (softfp_u64)1 << 52;
  return m.w != 0 && m.w < ((softfp_u64)1 << 16) && m.mux < ((softfp_u64)1 << 26) &&
         m.muy < ((softfp_u64)1 << 26) && m.x2 < limit && m.xy < limit && m.y2 < limit &&
         m.x2 * m.w < limit && m.xy * m.w < limit && m.y2 * m.w < limit;
}

/* softfp_fast_integers_of at any weight w: x2, xy and y2 times w, not shifted. */
SOFTFP_FN softfp_fast_integers softfp_fast_integers_of_weight(softfp_moments m, softfp_term_constants kw) {
  softfp_fast_integers r;
  const softfp_u64 mxy = m.mux * m.muy;
  r.ja = 2 * mxy + kw.c1_int;
  r.jc = m.mux * m.mux + m.muy * m.muy + kw.c1_int;
  r.jd = ((m.x2 + m.y2) * m.w + (kw.c1_int + kw.c2_int)) - r.jc;
  r.jb = 2 * (m.xy * m.w) + kw.c2_int - 2 * mxy;
  return r;
}

/* Whether softfp_term_fast_weight applies, with kw = softfp_weight_constants(k,
 * m.w) and softfp_term_fast_weight_moments(m): the constants allow it, D's
 * integer part is not negative, |w * xy - mux * muy| is below cov_limit (for
 * real windows both hold, as at w = 2^16), and B = jb + c2's fraction is not 0
 * (it is 0 only where c2 is an even integer and jb = 0). */
SOFTFP_FN int softfp_term_fast_weight_applies(softfp_moments m, softfp_term_constants kw) {
  const softfp_u64 mxy = m.mux * m.muy;
  const softfp_u64 cov = m.xy * m.w - mxy;
  const softfp_u64 cov_abs = (softfp_i64)cov < 0 ? ~cov + 1 : cov;
  const softfp_u64 dint = (m.x2 + m.y2) * m.w - (m.mux * m.mux + m.muy * m.muy);
  return kw.fast && (softfp_i64)dint >= 0 && cov_abs < kw.cov_limit && (2 * cov + kw.c2_int != 0 || kw.c2_frac2 != 0);
}

/* The term of a truncated window where softfp_term_fast_weight_applies: the
 * same bits as softfp_term_with. */
SOFTFP_FN softfp softfp_term_fast_weight(softfp_moments m, softfp_term_constants kw) {
  SOFTFP_PATH(SOFTFP_PATH_TERM_FAST_WEIGHT);
  const softfp_fast_parts p = softfp_fast_parts_of(softfp_fast_integers_of_weight(m, kw), kw);
  const softfp wa = softfp_fast_mul(softfp_from_u53(m.w), p.a);
  return softfp_fast_div(softfp_fast_mul(wa, p.b), softfp_fast_mul(p.c, p.d));
}

/* The term of a window softfp_term_fast does not take (a truncated window, or
 * a depth or moments beyond its bounds): the truncated windows' fast path where
 * it applies, softfp_term_with elsewhere. */
SOFTFP_FN softfp softfp_term_beyond_fast(softfp_moments m, softfp_term_constants k) {
  if (softfp_term_fast_weight_moments(m)) {
    const softfp_term_constants kw = softfp_weight_constants(k, m.w);
    if (softfp_term_fast_weight_applies(m, kw)) return softfp_term_fast_weight(m, kw);
  }
  return softfp_term_with(m, k, softfp_term_integer_shortcut_applies(m));
}

/* The term; check softfp_is_valid() on it (false only for impossible input). */
SOFTFP_FN softfp softfp_term(softfp_moments m, softfp_term_constants k) {
  if (softfp_term_fast_applies(m, k)) return softfp_term_fast(m, k);
  return softfp_term_beyond_fast(m, k);
}

#endif /* EXACTVQ_SOFTFP_H */
