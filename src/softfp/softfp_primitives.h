/* softfp primitives: the number format and the integer steps every operation
 * is built from (leading zeros, shifts with a sticky bit, rounding to 53 bits),
 * for binary64 on 64-bit integers on devices without fp64 (spec/fp64-free.md).
 *
 * softfp is written in the subset of core/portable.h, one source for C++ (host
 * tests), CUDA C++ (every function __host__ __device__; count-leading-zeros is
 * __clzll on the device) and OpenCL C (pasted into the kernels at build time).
 * It is layered as SoftFloat is: these primitives, the operations
 * (softfp_ops.h), and, apart from the float library, what one metric builds on
 * it (metrics/ssim/softfp_term.h: the SSIM term and its exact fast paths).
 * #include "softfp/softfp.h" takes the library (primitives and operations).
 *
 * A number is sign, significand and exponent: value = (-1)^neg * sig * 2^exp
 * with sig == 0 (zero) or 2^52 <= sig < 2^53. Every operation returns what
 * IEEE-754 binary64 round-to-nearest-even returns, for zero and normal operands
 * and results; softfp_is_valid() says whether a result is one.
 *
 * Optional: #define SOFTFP_PATH(id) before inclusion to count which paths
 * (SOFTFP_PATH_* below) run; the host tests do, kernels leave it empty. Build
 * with -fmad=false like every other target (nothing here does floating-point
 * arithmetic whose rounding matters: its fp32 is only an estimate that integers
 * correct).
 */
#ifndef EXACTVQ_SOFTFP_PRIMITIVES_H
#define EXACTVQ_SOFTFP_PRIMITIVES_H

#include "core/portable.h"

typedef exactvq_u64 softfp_u64;
typedef exactvq_i64 softfp_i64;
typedef exactvq_u32 softfp_u32;
typedef exactvq_i32 softfp_i32;
#define SOFTFP_FN EXACTVQ_FN
#define SOFTFP_U64_C(x) EXACTVQ_U64_C(x)

/* The high 32 bits of a 32 x 32-bit product: one instruction where the target
 * has it (the same value everywhere). */
#if defined(__OPENCL_VERSION__)
#define SOFTFP_MULHI32(a, b) mul_hi((softfp_u32)(a), (softfp_u32)(b))
#elif defined(__CUDA_ARCH__)
#define SOFTFP_MULHI32(a, b) __umulhi((softfp_u32)(a), (softfp_u32)(b))
#else
#define SOFTFP_MULHI32(a, b) ((softfp_u32)(((softfp_u64)(softfp_u32)(a) * (softfp_u32)(b)) >> 32))
#endif

/* Path counters for the tests (see the top), one space for the operations
 * and the paths of metrics/ssim/softfp_term.h. */
#ifndef SOFTFP_PATH
#define SOFTFP_PATH(id) ((void)0)
#endif
#define SOFTFP_PATH_ADD_ZERO_OPERAND 0 /* an operand is zero */
#define SOFTFP_PATH_ADD_SAME_SIGN 1    /* magnitudes add */
#define SOFTFP_PATH_SUB_NEAR 2         /* exponent gap 0 or 1: exact difference */
#define SOFTFP_PATH_SUB_FAR 3          /* gap >= 2: jammed sticky bit */
#define SOFTFP_PATH_SUB_TO_ZERO 4      /* x - x = +0 */
#define SOFTFP_PATH_ADD_ALL_STICKY 5   /* gap >= 64: the smaller is only a sticky bit */
#define SOFTFP_PATH_MUL_ZERO 6
#define SOFTFP_PATH_MUL_POW2 7    /* shortcut: a power of two (w = 2^16) moves the exponent */
#define SOFTFP_PATH_MUL_GENERAL 8 /* 106-bit product */
#define SOFTFP_PATH_DIV_ZERO 9    /* zero dividend */
#define SOFTFP_PATH_DIV_GENERAL 10
#define SOFTFP_PATH_DIV_DIGIT_DOWN 11 /* fp32 estimate one or more too high */
#define SOFTFP_PATH_DIV_DIGIT_UP 12   /* fp32 estimate too low */
#define SOFTFP_PATH_DIV_DIGIT_ZERO 13 /* a quotient digit of 0 */
#define SOFTFP_PATH_DIV_DIGIT_MAX 14  /* a quotient digit of radix - 1 */
#define SOFTFP_PATH_ROUND_UP 15       /* rounding incremented the significand */
#define SOFTFP_PATH_ROUND_TIE 16      /* exactly halfway */
#define SOFTFP_PATH_ROUND_CARRY 17    /* rounding up reached 2^53 */
#define SOFTFP_PATH_TERM_INTEGER 18   /* shortcut: the integer parts of the term are exact */
#define SOFTFP_PATH_TERM_GENERAL 19
#define SOFTFP_PATH_FIXED_SHIFT_LEFT 20 /* |term| * 2^64 is an integer */
#define SOFTFP_PATH_FIXED_ROUNDED 21
#define SOFTFP_PATH_FIXED_TO_ZERO 22    /* |term| * 2^64 < 1/2 */
#define SOFTFP_PATH_ADD_INTEGER 23      /* an exact integer plus a positive number */
#define SOFTFP_PATH_TERM_POW2_WEIGHT 24 /* shortcut: w is a power of two (2^16 inside) */
#define SOFTFP_PATH_TERM_FAST 25        /* the fast path: w = 2^16, integer parts exact */
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
#define SOFTFP_PATH_TERM_FAST_WEIGHT \
  41 /* the fast path's roundings for a truncated window (w < 2^16) */
/* softfp_fma's paths (softfp_fma.h). */
#define SOFTFP_PATH_FMA_ZERO_PRODUCT 42   /* a or b is zero: c (or a signed zero) */
#define SOFTFP_PATH_FMA_ZERO_ADDEND 43    /* c is zero: the product rounded */
#define SOFTFP_PATH_FMA_ADD 44            /* product and addend of one sign */
#define SOFTFP_PATH_FMA_SUBTRACT 45       /* of opposite signs */
#define SOFTFP_PATH_FMA_CANCEL_TO_ZERO 46 /* a * b = -c exactly: +0 */
#define SOFTFP_PATH_COUNT 47

typedef struct softfp {
  softfp_u64 sig; /* 0, or in [2^52, 2^53) */
  softfp_i32 exp; /* value = sig * 2^exp */
  softfp_i32 neg; /* 1: negative (also for -0) */
} softfp;

/* A signed 128-bit integer in two's complement, as two halves. */
typedef exactvq_i128 softfp_i128;

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

SOFTFP_FN softfp_i128 softfp_i128_add(softfp_i128 a, softfp_i128 b) {
  softfp_i128 s;
  s.lo = a.lo + b.lo;
  s.hi = a.hi + b.hi + (s.lo < a.lo ? (softfp_u64)1 : (softfp_u64)0);
  return s;
}

#endif /* EXACTVQ_SOFTFP_PRIMITIVES_H */
