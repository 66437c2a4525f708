/* ciede's per-pixel definition (definition.h) on softfp, for devices without
 * fp64 (OpenCL): the same steps in the same order and types, each binary64
 * operation a correctly rounded softfp operation, each binary32 one the
 * binary64 operation rounded once to float (libm/binary32_softfp.h: the
 * correctly rounded float result, subnormals included), the conversions
 * between them as C's, and the C library's functions through their softfp
 * forms (libm/<function>_softfp.h, on the domain ciede gives them:
 * docs/spec/ciede.md). Floats travel as bit patterns (exactvq_u32). In the
 * subset of core/portable.h; libm's tables come in one array of device memory
 * (CIEDE_TABLE_*: softfp_tables.h builds it). Tested against definition.h bit
 * for bit (tests/metrics/ciede/softfp_delta_e_test.cpp). */
#ifndef EXACTVQ_METRICS_CIEDE_SOFTFP_DELTA_E_H
#define EXACTVQ_METRICS_CIEDE_SOFTFP_DELTA_E_H

#include "libm/atan2_softfp.h"
#include "libm/binary32_softfp.h"
#include "softfp/softfp_sqrt.h"
#include "libm/exp_softfp.h"
#include "libm/pow_softfp.h"
#include "libm/powf_softfp.h"
#include "libm/sincos_softfp.h"

/* Where each of libm's tables starts in the table array, in 64-bit words. */
#define CIEDE_TABLE_EXP 0         /* detail::exp_table(): 256 words */
#define CIEDE_TABLE_POW_LOG 256   /* detail::pow_log_table(): 128 x 3 */
#define CIEDE_TABLE_POWF_LOG2 640 /* detail::powf_log2_table(): 16 x 2 */
#define CIEDE_TABLE_POWF_EXP2 672 /* detail::powf_exp2_table(): 32 */
#define CIEDE_TABLE_SINCOS 704    /* detail::sincos_table(): 110 x 4 */
#define CIEDE_TABLE_ATAN 1144     /* detail::atan_nodes(): 241 x 7 */
#define CIEDE_TABLE_WORDS 2831

/* definition.h's binary64 constants, as its compiler folds them (bit patterns). */
#define CIEDE_SF_V_TO_R EXACTVQ_U64_C(0x3FF47C3B4F616723)       /* 1.28033 */
#define CIEDE_SF_U_TO_G EXACTVQ_U64_C(0x3FCB7F38C5436B90)       /* 0.21482 */
#define CIEDE_SF_V_TO_G EXACTVQ_U64_C(0x3FD85B9628CBD124)       /* 0.38059 */
#define CIEDE_SF_U_TO_B EXACTVQ_U64_C(0x4001061A60D4562E)       /* 2.12798 */
#define CIEDE_SF_GAMMA_KNEE EXACTVQ_U64_C(0x3FA4141414141414)   /* 10.0 / 255.0 */
#define CIEDE_SF_GAMMA_OFFSET EXACTVQ_U64_C(0x3FAC28F5C28F5C29) /* 0.055 */
#define CIEDE_SF_GAMMA_SCALE EXACTVQ_U64_C(0x3FEE54EDCD0AEB60)  /* 1.0 / 1.055 */
#define CIEDE_SF_LINEAR_SCALE EXACTVQ_U64_C(0x3FB3D0722149B580) /* 1.0 / 12.92 */
#define CIEDE_SF_GAMMA EXACTVQ_U64_C(0x4003333333333333)        /* 2.4 */
#define CIEDE_SF_XR EXACTVQ_U64_C(0x3FDA65AFB13A8CCC)
#define CIEDE_SF_XG EXACTVQ_U64_C(0x3FD6E286C5D400C0)
#define CIEDE_SF_XB EXACTVQ_U64_C(0x3FC7189350CD0583)
#define CIEDE_SF_YR EXACTVQ_U64_C(0x3FCB38DD2EC46132)
#define CIEDE_SF_YG EXACTVQ_U64_C(0x3FE6E286C5D400C0)
#define CIEDE_SF_YB EXACTVQ_U64_C(0x3FB27A0F73D7379C)
#define CIEDE_SF_ZR EXACTVQ_U64_C(0x3F93CC43C4EBE999)
#define CIEDE_SF_ZG EXACTVQ_U64_C(0x3FBE835E5D1AABAB)
#define CIEDE_SF_ZB EXACTVQ_U64_C(0x3FEE68E419523630)
#define CIEDE_SF_X_WHITE EXACTVQ_U64_C(0x3FF0D57268615430) /* 1.0 / 0.95047 */
#define CIEDE_SF_Z_WHITE EXACTVQ_U64_C(0x3FED63AC153514F5) /* 1.0 / 1.08883 */
#define CIEDE_SF_EPSILON EXACTVQ_U64_C(0x3F822354D28F7CD6) /* 216.0 / 24389.0 */
#define CIEDE_SF_KAPPA EXACTVQ_U64_C(0x408C3A5ED097B426)   /* 24389.0 / 27.0 */
#define CIEDE_SF_ONE_THIRD EXACTVQ_U64_C(0x3FD5555555555555)
#define CIEDE_SF_ONE_116TH EXACTVQ_U64_C(0x3F81A7B9611A7B96)
#define CIEDE_SF_D16 EXACTVQ_U64_C(0x4030000000000000)
#define CIEDE_SF_D116 EXACTVQ_U64_C(0x405D000000000000)
#define CIEDE_SF_D500 EXACTVQ_U64_C(0x407F400000000000)
#define CIEDE_SF_D200 EXACTVQ_U64_C(0x4069000000000000)
#define CIEDE_SF_D7 EXACTVQ_U64_C(0x401C000000000000)
#define CIEDE_SF_POW25_7 EXACTVQ_U64_C(0x41F6BCC41E900000) /* 6103515625.0 */
#define CIEDE_SF_D1 EXACTVQ_U64_C(0x3FF0000000000000)
#define CIEDE_SF_D0_015 EXACTVQ_U64_C(0x3F8EB851EB851EB8)
#define CIEDE_SF_D20 EXACTVQ_U64_C(0x4034000000000000)
#define CIEDE_SF_D0_045 EXACTVQ_U64_C(0x3FA70A3D70A3D70A)
#define CIEDE_SF_PI EXACTVQ_U64_C(0x400921FB54442D18)
#define CIEDE_SF_TWO_PI EXACTVQ_U64_C(0x401921FB54442D18)
#define CIEDE_SF_D2 EXACTVQ_U64_C(0x4000000000000000)
#define CIEDE_SF_PI_6 EXACTVQ_U64_C(0x3FE0C152382D7365) /* kPi / 6.0 */
#define CIEDE_SF_D0_17 EXACTVQ_U64_C(0x3FC5C28F5C28F5C3)
#define CIEDE_SF_D0_24 EXACTVQ_U64_C(0x3FCEB851EB851EB8)
#define CIEDE_SF_D0_32 EXACTVQ_U64_C(0x3FD47AE147AE147B)
#define CIEDE_SF_D0_20 EXACTVQ_U64_C(0x3FC999999999999A)
#define CIEDE_SF_PI_30 EXACTVQ_U64_C(0x3FBACEE9F37BEBD5)   /* kPi / 30.0 */
#define CIEDE_SF_PI_7_20 EXACTVQ_U64_C(0x3FF197C987C952C4) /* 7.0 * kPi / 20.0 */
#define CIEDE_SF_D3 EXACTVQ_U64_C(0x4008000000000000)
#define CIEDE_SF_D4 EXACTVQ_U64_C(0x4010000000000000)
#define CIEDE_SF_DEGREES EXACTVQ_U64_C(0x404CA5DC1A63C1F8) /* 180.0 / kPi */
#define CIEDE_SF_RADIANS EXACTVQ_U64_C(0x3F91DF46A2529D39) /* kPi / 180.0 */
#define CIEDE_SF_D275 EXACTVQ_U64_C(0x4071300000000000)
#define CIEDE_SF_ONE_25TH EXACTVQ_U64_C(0x3FA47AE147AE147B)
#define CIEDE_SF_D60 EXACTVQ_U64_C(0x404E000000000000)
#define CIEDE_SF_MINUS2 EXACTVQ_U64_C(0xC000000000000000)
#define CIEDE_SF_D128 EXACTVQ_U64_C(0x4060000000000000)
#define CIEDE_SF_D219 EXACTVQ_U64_C(0x406B600000000000)
#define CIEDE_SF_D224 EXACTVQ_U64_C(0x406C000000000000)
/* Its binary32 constants. */
#define CIEDE_SF_F_KL 0x3F266666u      /* 0.65f */
#define CIEDE_SF_F_KC 0x3F800000u      /* 1.0f */
#define CIEDE_SF_F_KH 0x40800000u      /* 4.0f */
#define CIEDE_SF_F_TWO 0x40000000u     /* 2.0f */
#define CIEDE_SF_F_FIFTY 0x42480000u   /* 50.0f */
#define CIEDE_SF_F_SEVEN 0x40E00000u   /* 7.0f */
#define CIEDE_SF_F_POW25_7 0x4FB5E621u /* kPowf25To7 */

typedef exactvq_u32 ciede_f32; /* a binary32 value's bit pattern */

typedef struct CiedeSoftLab {
  ciede_f32 l, a, b;
} CiedeSoftLab;

#define CIEDE_C(bits) exactvq_softfp_c(bits)

SOFTFP_FN softfp ciede_wide(ciede_f32 x) { return softfp_from_f32_bits(x); }
SOFTFP_FN ciede_f32 ciede_narrow(softfp x) { return exactvq_softfp_to_f32(x); }
SOFTFP_FN int ciede_f32_is_zero(ciede_f32 x) { return (x & 0x7FFFFFFFu) == 0; }
SOFTFP_FN softfp ciede_square(ciede_f32 x) { return softfp_mul(ciede_wide(x), ciede_wide(x)); }

/* linear_light. */
EXACTVQ_SOFTFP_CALL_FN softfp ciede_soft_linear_light(softfp c,
                                                      const EXACTVQ_GLOBAL exactvq_u64* t) {
  if (softfp_less(CIEDE_C(CIEDE_SF_GAMMA_KNEE), c))
    return softfp_pow(
        softfp_mul(softfp_add(c, CIEDE_C(CIEDE_SF_GAMMA_OFFSET)), CIEDE_C(CIEDE_SF_GAMMA_SCALE)),
        CIEDE_C(CIEDE_SF_GAMMA), t + CIEDE_TABLE_POW_LOG, t + CIEDE_TABLE_EXP);
  return softfp_mul(c, CIEDE_C(CIEDE_SF_LINEAR_SCALE));
}

/* lab_f, as a float. */
EXACTVQ_SOFTFP_CALL_FN ciede_f32 ciede_soft_lab_f(softfp x, const EXACTVQ_GLOBAL exactvq_u64* t) {
  if (softfp_less(CIEDE_C(CIEDE_SF_EPSILON), x))
    return ciede_narrow(
        softfp_pow(x, CIEDE_C(CIEDE_SF_ONE_THIRD), t + CIEDE_TABLE_POW_LOG, t + CIEDE_TABLE_EXP));
  return ciede_narrow(
      softfp_mul(softfp_add(softfp_mul(CIEDE_C(CIEDE_SF_KAPPA), x), CIEDE_C(CIEDE_SF_D16)),
                 CIEDE_C(CIEDE_SF_ONE_116TH)));
}

/* lab_color of the integer samples at `bitdepth` bits. */
EXACTVQ_SOFTFP_CALL_FN CiedeSoftLab ciede_soft_lab_color(exactvq_u32 y_sample, exactvq_u32 u_sample,
                                                         exactvq_u32 v_sample, int bitdepth,
                                                         const EXACTVQ_GLOBAL exactvq_u64* t) {
  const softfp scale = softfp_from_i53((softfp_i64)1 << (bitdepth - 8));
  const softfp one = CIEDE_C(CIEDE_SF_D1);
  const softfp y = softfp_mul(
      softfp_sub(softfp_from_i53((softfp_i64)y_sample), softfp_mul(CIEDE_C(CIEDE_SF_D16), scale)),
      softfp_div(one, softfp_mul(CIEDE_C(CIEDE_SF_D219), scale)));
  const softfp u = softfp_mul(
      softfp_sub(softfp_from_i53((softfp_i64)u_sample), softfp_mul(CIEDE_C(CIEDE_SF_D128), scale)),
      softfp_div(one, softfp_mul(CIEDE_C(CIEDE_SF_D224), scale)));
  const softfp v = softfp_mul(
      softfp_sub(softfp_from_i53((softfp_i64)v_sample), softfp_mul(CIEDE_C(CIEDE_SF_D128), scale)),
      softfp_div(one, softfp_mul(CIEDE_C(CIEDE_SF_D224), scale)));

  const softfp r =
      ciede_soft_linear_light(softfp_add(y, softfp_mul(CIEDE_C(CIEDE_SF_V_TO_R), v)), t);
  const softfp g =
      ciede_soft_linear_light(softfp_sub(softfp_sub(y, softfp_mul(CIEDE_C(CIEDE_SF_U_TO_G), u)),
                                         softfp_mul(CIEDE_C(CIEDE_SF_V_TO_G), v)),
                              t);
  const softfp b =
      ciede_soft_linear_light(softfp_add(y, softfp_mul(CIEDE_C(CIEDE_SF_U_TO_B), u)), t);

  const softfp x = softfp_add(
      softfp_add(softfp_mul(r, CIEDE_C(CIEDE_SF_XR)), softfp_mul(g, CIEDE_C(CIEDE_SF_XG))),
      softfp_mul(b, CIEDE_C(CIEDE_SF_XB)));
  const softfp lum = softfp_add(
      softfp_add(softfp_mul(r, CIEDE_C(CIEDE_SF_YR)), softfp_mul(g, CIEDE_C(CIEDE_SF_YG))),
      softfp_mul(b, CIEDE_C(CIEDE_SF_YB)));
  const softfp z = softfp_add(
      softfp_add(softfp_mul(r, CIEDE_C(CIEDE_SF_ZR)), softfp_mul(g, CIEDE_C(CIEDE_SF_ZG))),
      softfp_mul(b, CIEDE_C(CIEDE_SF_ZB)));

  const softfp fx = ciede_wide(ciede_soft_lab_f(softfp_mul(x, CIEDE_C(CIEDE_SF_X_WHITE)), t));
  const softfp fy = ciede_wide(ciede_soft_lab_f(lum, t));
  const softfp fz = ciede_wide(ciede_soft_lab_f(softfp_mul(z, CIEDE_C(CIEDE_SF_Z_WHITE)), t));
  CiedeSoftLab lab;
  lab.l = ciede_narrow(softfp_sub(softfp_mul(CIEDE_C(CIEDE_SF_D116), fy), CIEDE_C(CIEDE_SF_D16)));
  lab.a = ciede_narrow(softfp_mul(CIEDE_C(CIEDE_SF_D500), softfp_sub(fx, fy)));
  lab.b = ciede_narrow(softfp_mul(CIEDE_C(CIEDE_SF_D200), softfp_sub(fy, fz)));
  return lab;
}

/* hue_angle. */
EXACTVQ_SOFTFP_CALL_FN ciede_f32 ciede_soft_hue_angle(ciede_f32 b, ciede_f32 a_prime,
                                                      const EXACTVQ_GLOBAL exactvq_u64* t) {
  if (ciede_f32_is_zero(b) && ciede_f32_is_zero(a_prime)) return 0;
  ciede_f32 h =
      ciede_narrow(softfp_atan2(ciede_wide(b), ciede_wide(a_prime), t + CIEDE_TABLE_ATAN));
  if ((h & 0x80000000u) != 0 && !ciede_f32_is_zero(h)) /* double(h) < 0.0 */
    h = ciede_narrow(softfp_add(ciede_wide(h), CIEDE_C(CIEDE_SF_TWO_PI)));
  return h;
}

/* hue_difference. */
EXACTVQ_SOFTFP_CALL_FN ciede_f32 ciede_soft_hue_difference(ciede_f32 c1, ciede_f32 c2, ciede_f32 h1,
                                                           ciede_f32 h2) {
  if (ciede_f32_is_zero(c1) || ciede_f32_is_zero(c2)) return 0;
  const softfp pi = CIEDE_C(CIEDE_SF_PI);
  if (!softfp_less(pi, exactvq_softfp_abs(ciede_wide(exactvq_f32_sub(h1, h2)))))
    return exactvq_f32_sub(h2, h1);
  const softfp d = ciede_wide(exactvq_f32_sub(h2, h1));
  if (!softfp_less(ciede_wide(h1), ciede_wide(h2))) /* h2 <= h1 */
    return ciede_narrow(softfp_add(d, CIEDE_C(CIEDE_SF_TWO_PI)));
  return ciede_narrow(softfp_sub(d, CIEDE_C(CIEDE_SF_TWO_PI)));
}

/* mean_hue. */
EXACTVQ_SOFTFP_CALL_FN ciede_f32 ciede_soft_mean_hue(ciede_f32 h1, ciede_f32 h2) {
  const softfp sum = ciede_wide(exactvq_f32_add(h1, h2));
  if (softfp_less(CIEDE_C(CIEDE_SF_PI), exactvq_softfp_abs(ciede_wide(exactvq_f32_sub(h1, h2)))))
    return ciede_narrow(
        softfp_div(softfp_add(sum, CIEDE_C(CIEDE_SF_TWO_PI)), CIEDE_C(CIEDE_SF_D2)));
  return ciede_narrow(softfp_div(sum, CIEDE_C(CIEDE_SF_D2)));
}

/* hue_weighting. */
EXACTVQ_SOFTFP_CALL_FN ciede_f32 ciede_soft_hue_weighting(ciede_f32 mean_h,
                                                          const EXACTVQ_GLOBAL exactvq_u64* t) {
  const EXACTVQ_GLOBAL exactvq_u64* sincos = t + CIEDE_TABLE_SINCOS;
  const softfp h = ciede_wide(mean_h);
  const softfp c1 = softfp_cos(softfp_sub(h, CIEDE_C(CIEDE_SF_PI_6)), sincos);
  const softfp c2 = softfp_cos(softfp_mul(CIEDE_C(CIEDE_SF_D2), h), sincos);
  const softfp c3 =
      softfp_cos(softfp_add(softfp_mul(CIEDE_C(CIEDE_SF_D3), h), CIEDE_C(CIEDE_SF_PI_30)), sincos);
  const softfp c4 = softfp_cos(
      softfp_sub(softfp_mul(CIEDE_C(CIEDE_SF_D4), h), CIEDE_C(CIEDE_SF_PI_7_20)), sincos);
  softfp w = softfp_sub(CIEDE_C(CIEDE_SF_D1), softfp_mul(CIEDE_C(CIEDE_SF_D0_17), c1));
  w = softfp_add(w, softfp_mul(CIEDE_C(CIEDE_SF_D0_24), c2));
  w = softfp_add(w, softfp_mul(CIEDE_C(CIEDE_SF_D0_32), c3));
  w = softfp_sub(w, softfp_mul(CIEDE_C(CIEDE_SF_D0_20), c4));
  return ciede_narrow(w);
}

/* rotation_term. */
EXACTVQ_SOFTFP_CALL_FN ciede_f32 ciede_soft_rotation_term(ciede_f32 c_bar_prime, ciede_f32 mean_h,
                                                          const EXACTVQ_GLOBAL exactvq_u64* t) {
  const ciede_f32 deg = ciede_narrow(softfp_mul(ciede_wide(mean_h), CIEDE_C(CIEDE_SF_DEGREES)));
  const ciede_f32 d = ciede_narrow(
      softfp_mul(softfp_sub(ciede_wide(deg), CIEDE_C(CIEDE_SF_D275)), CIEDE_C(CIEDE_SF_ONE_25TH)));
  const ciede_f32 c7 = softfp_powf(c_bar_prime, CIEDE_SF_F_SEVEN, t + CIEDE_TABLE_POWF_LOG2,
                                   t + CIEDE_TABLE_POWF_EXP2);
  const softfp root =
      softfp_sqrt(ciede_wide(exactvq_f32_div(c7, exactvq_f32_add(c7, CIEDE_SF_F_POW25_7))));
  const ciede_f32 d2 = exactvq_f32_mul(d, d);
  const softfp e = softfp_exp(ciede_wide(d2 ^ 0x80000000u), t + CIEDE_TABLE_EXP); /* exp(-d^2) */
  const ciede_f32 sixty_e = ciede_narrow(softfp_mul(CIEDE_C(CIEDE_SF_D60), e));
  const ciede_f32 angle = ciede_narrow(softfp_mul(ciede_wide(sixty_e), CIEDE_C(CIEDE_SF_RADIANS)));
  return ciede_narrow(softfp_mul(softfp_mul(CIEDE_C(CIEDE_SF_MINUS2), root),
                                 softfp_sin(ciede_wide(angle), t + CIEDE_TABLE_SINCOS)));
}

/* a_i' = float(a + (a / 2f) g). */
EXACTVQ_SOFTFP_CALL_FN ciede_f32 ciede_soft_a_prime(ciede_f32 a, softfp g) {
  return ciede_narrow(
      softfp_add(ciede_wide(a), softfp_mul(ciede_wide(exactvq_f32_div(a, CIEDE_SF_F_TWO)), g)));
}

/* float(sqrt(a^2 + b^2)), the squares exact in binary64. */
EXACTVQ_SOFTFP_CALL_FN ciede_f32 ciede_soft_chroma(ciede_f32 a, ciede_f32 b) {
  return ciede_narrow(softfp_sqrt(softfp_add(ciede_square(a), ciede_square(b))));
}

/* delta_e_2000 from the reference's colour c1 to the distorted one's c2. */
EXACTVQ_SOFTFP_CALL_FN ciede_f32 ciede_soft_delta_e(CiedeSoftLab c1, CiedeSoftLab c2,
                                                    const EXACTVQ_GLOBAL exactvq_u64* t) {
  const softfp one = CIEDE_C(CIEDE_SF_D1);
  const ciede_f32 delta_l = exactvq_f32_sub(c2.l, c1.l);
  const ciede_f32 l_bar = exactvq_f32_div(exactvq_f32_add(c1.l, c2.l), CIEDE_SF_F_TWO);
  const ciede_f32 chroma1 = ciede_soft_chroma(c1.a, c1.b);
  const ciede_f32 chroma2 = ciede_soft_chroma(c2.a, c2.b);
  const ciede_f32 c_bar = exactvq_f32_div(exactvq_f32_add(chroma1, chroma2), CIEDE_SF_F_TWO);
  const softfp c_bar7 = softfp_pow(ciede_wide(c_bar), CIEDE_C(CIEDE_SF_D7), t + CIEDE_TABLE_POW_LOG,
                                   t + CIEDE_TABLE_EXP);
  const softfp g = softfp_sub(
      one, softfp_sqrt(softfp_div(c_bar7, softfp_add(c_bar7, CIEDE_C(CIEDE_SF_POW25_7)))));
  const ciede_f32 a1 = ciede_soft_a_prime(c1.a, g);
  const ciede_f32 a2 = ciede_soft_a_prime(c2.a, g);
  const ciede_f32 c_prime1 = ciede_soft_chroma(a1, c1.b);
  const ciede_f32 c_prime2 = ciede_soft_chroma(a2, c2.b);
  const ciede_f32 c_bar_prime =
      exactvq_f32_div(exactvq_f32_add(c_prime1, c_prime2), CIEDE_SF_F_TWO);
  const ciede_f32 delta_c = exactvq_f32_sub(c_prime2, c_prime1);
  const softfp l_off2 = ciede_square(exactvq_f32_sub(l_bar, CIEDE_SF_F_FIFTY));
  const ciede_f32 s_l = ciede_narrow(
      softfp_add(one, softfp_div(softfp_mul(CIEDE_C(CIEDE_SF_D0_015), l_off2),
                                 softfp_sqrt(softfp_add(CIEDE_C(CIEDE_SF_D20), l_off2)))));
  const ciede_f32 s_c =
      ciede_narrow(softfp_add(one, softfp_mul(CIEDE_C(CIEDE_SF_D0_045), ciede_wide(c_bar_prime))));
  const ciede_f32 h1 = ciede_soft_hue_angle(c1.b, a1, t);
  const ciede_f32 h2 = ciede_soft_hue_angle(c2.b, a2, t);
  const ciede_f32 delta_h = ciede_soft_hue_difference(chroma1, chroma2, h1, h2);
  const ciede_f32 delta_big_h = ciede_narrow(softfp_mul(
      softfp_mul(CIEDE_C(CIEDE_SF_D2),
                 softfp_sqrt(ciede_wide(exactvq_f32_mul(c_prime1, c_prime2)))),
      softfp_sin(softfp_div(ciede_wide(delta_h), CIEDE_C(CIEDE_SF_D2)), t + CIEDE_TABLE_SINCOS)));
  const ciede_f32 mean_h = ciede_soft_mean_hue(h1, h2);
  const ciede_f32 weight = ciede_soft_hue_weighting(mean_h, t);
  const ciede_f32 s_h = ciede_narrow(
      softfp_add(one, softfp_mul(softfp_mul(CIEDE_C(CIEDE_SF_D0_015), ciede_wide(c_bar_prime)),
                                 ciede_wide(weight))));
  const ciede_f32 r_t = ciede_soft_rotation_term(c_bar_prime, mean_h, t);
  const ciede_f32 lightness = exactvq_f32_div(delta_l, exactvq_f32_mul(CIEDE_SF_F_KL, s_l));
  const ciede_f32 chroma = exactvq_f32_div(delta_c, exactvq_f32_mul(CIEDE_SF_F_KC, s_c));
  const ciede_f32 hue = exactvq_f32_div(delta_big_h, exactvq_f32_mul(CIEDE_SF_F_KH, s_h));
  softfp sum = softfp_add(ciede_square(lightness), ciede_square(chroma));
  sum = softfp_add(sum, ciede_square(hue));
  sum = softfp_add(sum, ciede_wide(exactvq_f32_mul(exactvq_f32_mul(r_t, chroma), hue)));
  return ciede_narrow(softfp_sqrt(sum));
}

#endif /* EXACTVQ_METRICS_CIEDE_SOFTFP_DELTA_E_H */
