// ADM's pinned data against independent computations: the CSF factors and
// the cosine of one degree with extended precision (long double) where
// libvmaf used binary64 libm calls (shown to give the pinned floats for any
// libm result within one ulp), their cubes exactly, the fixed-point forms,
// the reciprocal table, and the powf algorithm against the host's powf
// (glibc) and against glibc's own values where they are not x^(1/3)
// correctly rounded.
#include <gtest/gtest.h>

#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "metrics/adm/barten_csf.h"
#include "metrics/adm/csf_factors.h"
#include "metrics/adm/decouple.h"
#include "metrics/adm/one_third_power.h"
#include "metrics/adm/options.h"

namespace exactvq::adm {
namespace {

bool same_float(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The binary64 values a libm call within one ulp can return for the true
// value v (exact to long double precision): v's rounding and its two neighbours.
std::array<double, 3> within_one_ulp(long double v) {
  const double d = static_cast<double>(v);
  return {std::nextafter(d, -HUGE_VAL), d, std::nextafter(d, HUGE_VAL)};
}

float to_float_checked(long double v, double ulps, const char* what) {
  const float f = static_cast<float>(v);
  const long double ulp = static_cast<long double>(std::nextafter(f, HUGE_VALF)) - f;
  const long double away = std::fabs(std::fabs(v - f) - ulp / 2);
  EXPECT_GT(away, ulps * ulp) << what << " lies too near a rounding midpoint to decide";
  return f;
}

bool long_double_is_extended() { return LDBL_MANT_DIG >= 64; }

TEST(AdmPinned, CosineOfOneDegreeSquared) {
  if (!long_double_is_extended()) GTEST_SKIP() << "long double has no extra precision here";
  const double x =
      1.0 * 3.14159265358979323846264338327 / 180.0;  // libvmaf's argument, in binary64
  // Whichever of them cos() returned, the float of its square is the pinned value.
  for (const double c : within_one_ulp(cosl(static_cast<long double>(x))))
    EXPECT_TRUE(same_float(static_cast<float>(c * c), kCosOneDegreeSquared)) << std::hexfloat << c;
}

TEST(AdmPinned, WatsonFactorsOfTheDefaultGeometry) {
  if (!long_double_is_extended()) GTEST_SKIP() << "long double has no extra precision here";
  const CsfFactors& pinned = default_csf_factors();
  const float r = pixels_per_degree(3.0, 1080);
  EXPECT_TRUE(same_float(r, 0x1.c463acp+5f));
  const WatsonModel& m = kWatsonLuma;
  for (int lambda = 0; lambda < 4; ++lambda)
    for (int theta = 1; theta <= 2; ++theta) {
      // libvmaf: temp = (float)log10(2^(lambda+1) * f0 * g / r) and
      // Q = (float)(2 * a * pow(10, k * temp * temp) / A), the libm calls in
      // binary64, the rest exact IEEE operations.
      const double arg = std::ldexp(1.0, lambda + 1) * m.f0 * m.g[theta] / r;
      // log10's binary64 result is within an ulp of the true value; its
      // rounding to float is decided with a wide margin.
      const float temp = to_float_checked(log10l(static_cast<long double>(arg)), 1e-6, "log10");
      const float e = m.k * temp * temp;
      // Whichever binary64 neighbour of 10^e pow() returned, Q and the factor are the pinned ones.
      const float want = theta == 1 ? pinned.factor_hv[lambda] : pinned.factor_d[lambda];
      float factor = 0;
      for (const double p : within_one_ulp(powl(10.0L, static_cast<long double>(e)))) {
        const float q = static_cast<float>(2.0 * m.a * p / m.amplitude[lambda][theta]);
        factor = 1.0f / q;
        EXPECT_TRUE(same_float(factor, want)) << "lambda " << lambda << " theta " << theta << ": "
                                              << std::hexfloat << factor << " vs pinned " << want;
      }
      const double cube = theta == 1 ? pinned.cube_hv[lambda] : pinned.cube_d[lambda];
      EXPECT_EQ(exact_cube(factor), cube) << "lambda " << lambda;
      if (lambda > 0) {
        const uint32_t fixed = theta == 1 ? pinned.fixed_hv[lambda] : pinned.fixed_d[lambda];
        EXPECT_EQ(fixed, static_cast<uint32_t>(static_cast<double>(factor) * 4294967296.0));
      }
    }
  // libvmaf's own scale-0 constants, a few units from the computed factors.
  EXPECT_EQ(pinned.scale0_fixed[0], 36453);
  EXPECT_EQ(pinned.scale0_fixed[1], 36453);
  EXPECT_EQ(pinned.scale0_fixed[2], 49417);
  EXPECT_NEAR(pinned.factor_hv[0] * 2097152.0, 36453, 3);
  EXPECT_NEAR(pinned.factor_d[0] * 8388608.0, 49417, 4);
}

// adm_csf_mode 1 at 3 * 1080: libvmaf's barten_csf() as compiled with gcc
// and glibc 2.36 on x86-64, and its fixed-point forms, which wrap (the
// factors exceed 1): scale 0 through an int32's low 16 bits, scales 1..3
// through an int64's low 32 bits.
TEST(AdmPinned, BartenFactorsAndTheirWrappedFixedForms) {
  const float want[4] = {0x1.35e31ap+0f, 0x1.42b3c6p+2f, 0x1.d410eap+3f, 0x1.af9d36p+4f};
  for (int lambda = 0; lambda < 4; ++lambda)
    EXPECT_EQ(barten_csf(lambda, 3.0, 1080, 1.0), want[lambda]) << lambda;
  AdmOptions o;
  o.csf_mode = CsfMode::kBarten;
  const CsfFactors f = csf_factors(o);
  EXPECT_EQ(f.factor_hv[3], want[3]);
  EXPECT_EQ(f.factor_d[3], want[3]);  // adm_csf_diag_scale 1: the same function
  EXPECT_EQ(f.scale0_fixed[0], 48227);
  EXPECT_EQ(f.fixed_hv[1], 181344256u);
  EXPECT_EQ(f.fixed_hv[2], 2693222400u);
  EXPECT_EQ(f.fixed_hv[3], 4191379456u);
  o.csf_diag_scale = 0.5;
  EXPECT_EQ(csf_factors(o).factor_d[2], static_cast<float>(double(want[2]) * 0.5));
}

// adm_csf_mode 2 and 3 read libvmaf's tables; 2160 rows at 1.5 H share 1080
// at 3 H's.
TEST(AdmPinned, BlendedFactorsAreTheTables) {
  AdmOptions o;
  o.csf_mode = CsfMode::kBartenWatsonBlend;
  const CsfFactors f = csf_factors(o);
  EXPECT_EQ(f.factor_hv[0], 0.01183f);
  EXPECT_EQ(f.factor_d[0], 0.004302f);
  EXPECT_EQ(f.scale0_fixed[0], 24809);  // (uint16)(0.01183f * 2^21)
  EXPECT_EQ(f.scale0_fixed[2], 36087);  // (uint16)(0.004302f * 2^23)
  EXPECT_EQ(f.fixed_hv[1], 107485848u);
  o.norm_view_dist = 1.5;
  o.ref_display_height = 2160;
  EXPECT_EQ(csf_factors(o).fixed_hv[1], f.fixed_hv[1]);
  o.csf_mode = CsfMode::kBartenWatsonBlendMae;
  EXPECT_EQ(csf_factors(o).factor_hv[3], 0.045673f);
  EXPECT_EQ(csf_factors(o).fixed_hv[3], 196164048u);
  EXPECT_FALSE(blended_csf(0, false, false, 4.0, 1080).has_value());
  EXPECT_TRUE(blended_csf(3, true, true, 5.0, 720).has_value());
}

TEST(AdmPinned, OtherGeometriesKeepTheScale0ConstantsOnlyAtTheDefaultProduct) {
  const CsfFactors same_product = csf_factors(6.0, 540);
  EXPECT_EQ(same_product.scale0_fixed[0], 36453);
  EXPECT_EQ(same_product.factor_hv[2], default_csf_factors().factor_hv[2]);
  const CsfFactors farther = csf_factors(4.0, 1080);
  EXPECT_EQ(farther.scale0_fixed[0], static_cast<uint16_t>(farther.factor_hv[0] * 2097152.0));
  EXPECT_LT(farther.factor_hv[0], default_csf_factors().factor_hv[0]);
}

TEST(AdmPinned, ExactCubeRoundsToNearestEven) {
  EXPECT_EQ(exact_cube(3.0f), 27.0);
  EXPECT_EQ(exact_cube(0.5f), 0.125);
  // (1 + 2^-23)^3 = 1 + 3 * 2^-23 + 3 * 2^-46 + 2^-69: rounds to 1 + 3 * 2^-23 + 3 * 2^-46 exactly.
  EXPECT_EQ(exact_cube(1.0f + 0x1p-23f), 1.0 + 3 * 0x1p-23 + 3 * 0x1p-46);
}

TEST(AdmPinned, ReciprocalTable) {
  const int32_t* t = reciprocal_table();
  EXPECT_EQ(t[32768 + 1], 1 << 30);
  EXPECT_EQ(t[32768 - 1], -(1 << 30));
  EXPECT_EQ(t[32768 + 3], 357913941);
  EXPECT_EQ(t[32768 + 32768], 32768);
  EXPECT_EQ(t[0], -32768);
}

TEST(AdmPinned, OneThirdPowerSpecialValues) {
  EXPECT_TRUE(same_float(one_third_power(0.0f), 0.0f));
  EXPECT_TRUE(same_float(one_third_power(-0.0f), 0.0f));
  EXPECT_TRUE(same_float(one_third_power(1.0f), 1.0f));
  EXPECT_TRUE(std::isinf(one_third_power(HUGE_VALF)));
  EXPECT_TRUE(std::isnan(one_third_power(-1.0f)));
  EXPECT_TRUE(std::isnan(one_third_power(NAN)));
  // 8^(1/3 + 2^-25/3) = 2 (1 + 0.17 ulp) rounds to 2; 2^-126 to about 2^-42.
  EXPECT_TRUE(same_float(one_third_power(8.0f), 2.0f));
  EXPECT_TRUE(same_float(one_third_power(0x1p-126f), std::pow(0x1p-126f, kOneThirdF)));
}

// Inputs where glibc's powf (the definition) is not x^(1/3f) correctly
// rounded: its value, found by sweeping floats against a 200-bit computation.
TEST(AdmPinned, OneThirdPowerFollowsGlibcWhereItIsNotCorrectlyRounded) {
  struct Known {
    float x, glibc;
  };
  const Known known[] = {
      {0x1.e0e04p-128f, 0x1.8df79cp-43f},  // x^y = 0x1.8df79aff6dc5bp-43
      {0x1.843d42p-108f, 0x1.261fp-36f},   // 0x1.261efeffdb8f5p-36
      {0x1.fc7b5p-101f, 0x1.957102p-34f},  // 0x1.957100ff9a84fp-34
      {0x1.9d1f64p-91f, 0x1.dca836p-31f},  // 0x1.dca834ff3cc1dp-31
  };
  for (const Known& k : known)
    EXPECT_TRUE(same_float(one_third_power(k.x), k.glibc)) << std::hexfloat << k.x;
}

TEST(AdmPinned, OneThirdPowerEqualsTheHostPowfOnASweep) {
#if defined(__GLIBC__)
  // Every 2039th non-negative float (about a million); the whole range was
  // compared once (2^31 floats, none differing from glibc 2.36).
  int64_t compared = 0, differing = 0;
  for (uint64_t bits = 0; bits < 0x7f800000u; bits += 2039, ++compared) {
    float x;
    const uint32_t b = static_cast<uint32_t>(bits);
    std::memcpy(&x, &b, sizeof x);
    const float want = std::pow(x, kOneThirdF);
    if (!same_float(one_third_power(x), want)) {
      ++differing;
      ADD_FAILURE() << std::hexfloat << "x " << x << ": " << one_third_power(x) << " vs powf "
                    << want;
      if (differing > 10) break;
    }
  }
  std::printf("one_third_power: %lld floats compared with the host powf, %lld differing\n",
              static_cast<long long>(compared), static_cast<long long>(differing));
#else
  GTEST_SKIP() << "the host C library is not glibc: its powf is not the definition";
#endif
}

}  // namespace
}  // namespace exactvq::adm
