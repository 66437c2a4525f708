// CIEDE2000 as libvmaf's ciede computes it (docs/spec/ciede.md): each pixel's
// Y'CbCr (BT.709, limited range) to R'G'B', to linear RGB, to XYZ (D65), to
// L*a*b*, then the colour difference of the two pictures' colours. Every step
// keeps libvmaf's types: binary64 for the conversion, binary32 for the colours
// and most of the difference, the C promotions between them (a float operand of
// a double operation is widened first; a double result stored in a float is
// rounded), and the C library's functions through exactvq::libm. Where libvmaf's
// compiler turned pow(x, 2) into x * x (always: GCC expands integer exponents up
// to 2), the square is a product here too, in the operand's type.
//
// One text for the host and, in a .cu file, for CUDA devices with native fp64
// (docs/spec/ciede.md, "Device engines"): the functions are __host__ __device__
// under nvcc, the C library's functions those of libm/portable_functions.h,
// and contraction is off on both sides (-ffp-contract=off, -fmad=false); float
// and double division and square root are IEEE's, correctly rounded, on both.
#pragma once

#include "libm/fp_bits.h"
#include "libm/portable_functions.h"

#if !defined(__CUDA_ARCH__)
#include <cmath>
#endif

#if defined(__CUDACC__)
#define EXACTVQ_CIEDE_HD __host__ __device__ inline
#else
#define EXACTVQ_CIEDE_HD inline
#endif

namespace exactvq::ciede {

namespace lib = libm::portable;

// The correctly rounded square root.
EXACTVQ_CIEDE_HD double square_root(double x) {
#if defined(__CUDA_ARCH__)
  return __dsqrt_rn(x);
#else
  return std::sqrt(x);
#endif
}

// |x| of a finite double.
EXACTVQ_CIEDE_HD double magnitude(double x) { return libm::detail::abs_of(x); }

inline constexpr double kPi = 3.14159265358979323846;  // M_PI

struct LabColor {
  float l, a, b;
};

// pow(x, 2) of a float argument: the exact square in binary64.
EXACTVQ_CIEDE_HD double square(float x) { return double(x) * double(x); }

// Gamma-encoded R', G' or B' to linear light (sRGB's curve).
EXACTVQ_CIEDE_HD double linear_light(double c) {
  if (c > 10.0 / 255.0) return lib::pow((c + 0.055) * (1.0 / 1.055), 2.4);
  return c * (1.0 / 12.92);
}

// f(t) of CIELAB for one XYZ component over its white point, rounded to float.
EXACTVQ_CIEDE_HD float lab_f(double t) {
  constexpr double kKappa = 24389.0 / 27.0;
  constexpr double kEpsilon = 216.0 / 24389.0;
  if (t > kEpsilon) return float(lib::pow(t, 1.0 / 3.0));
  return float((kKappa * t + 16.0) * (1.0 / 116.0));
}

// One pixel's L*a*b* from its samples at `bitdepth` bits.
EXACTVQ_CIEDE_HD LabColor lab_color(float y_sample, float u_sample, float v_sample, int bitdepth) {
  const double scale = double(1 << (bitdepth - 8));
  const double y = (double(y_sample) - 16.0 * scale) * (1.0 / (219.0 * scale));
  const double u = (double(u_sample) - 128.0 * scale) * (1.0 / (224.0 * scale));
  const double v = (double(v_sample) - 128.0 * scale) * (1.0 / (224.0 * scale));

  const double r = linear_light(y + 1.28033 * v);
  const double g = linear_light(y - 0.21482 * u - 0.38059 * v);
  const double b = linear_light(y + 2.12798 * u);

  const double x = r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894;
  const double lum = r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958;
  const double z = r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677;

  const double fx = lab_f(x * (1.0 / 0.95047));
  const double fy = lab_f(lum);
  const double fz = lab_f(z * (1.0 / 1.08883));
  return LabColor{float(116.0 * fy - 16.0), float(500.0 * (fx - fy)), float(200.0 * (fy - fz))};
}

// The hue angle h' in [0, 2 pi) of (a', b'); 0 for the neutral colour.
EXACTVQ_CIEDE_HD float hue_angle(float b, float a_prime) {
  if (b == 0.0f && a_prime == 0.0f) return 0.0f;
  float h = float(lib::atan2(double(b), double(a_prime)));
  if (double(h) < 0.0) h = float(double(h) + 2.0 * kPi);
  return h;
}

// The hue difference delta h', brought into [-pi, pi]; 0 when either chroma
// (the unmodified C*ab) is 0.
EXACTVQ_CIEDE_HD float hue_difference(float c1, float c2, float h1, float h2) {
  if (c1 == 0.0f || c2 == 0.0f) return 0.0f;
  if (magnitude(double(h1 - h2)) <= kPi) return h2 - h1;
  if (h2 <= h1) return float(double(h2 - h1) + 2.0 * kPi);
  return float(double(h2 - h1) - 2.0 * kPi);
}

// The mean hue H-bar' (without the reduction below 2 pi that CIEDE2000's
// statement adds: libvmaf leaves it out, and the cosines do not mind).
EXACTVQ_CIEDE_HD float mean_hue(float h1, float h2) {
  if (magnitude(double(h1 - h2)) > kPi) return float((double(h1 + h2) + 2.0 * kPi) / 2.0);
  return float(double(h1 + h2) / 2.0);
}

// The hue weighting T of the mean hue.
EXACTVQ_CIEDE_HD float hue_weighting(float mean_h) {
  const double h = mean_h;
  return float(1.0 - 0.17 * lib::cos(h - kPi / 6.0) + 0.24 * lib::cos(2.0 * h) +
               0.32 * lib::cos(3.0 * h + kPi / 30.0) - 0.20 * lib::cos(4.0 * h - 7.0 * kPi / 20.0));
}

EXACTVQ_CIEDE_HD float degrees_of(float radians) { return float(double(radians) * (180.0 / kPi)); }
EXACTVQ_CIEDE_HD float radians_of(float degrees) { return float(double(degrees) * (kPi / 180.0)); }

// powf(25, 7) as libvmaf's compiler folded it: 25^7 rounded to float.
inline constexpr float kPowf25To7 = 6103515648.0f;

// The rotation term R_T of the mean chroma C-bar' and mean hue.
EXACTVQ_CIEDE_HD float rotation_term(float c_bar_prime, float mean_h) {
  const float t = float((double(degrees_of(mean_h)) - 275.0) * (1.0 / 25.0));
  const float c7 = lib::powf(c_bar_prime, 7.0f);
  const double root = square_root(double(c7 / (c7 + kPowf25To7)));
  const float t2 = t * t;  // powf(t, 2), a float product in libvmaf's build
  const float angle = radians_of(float(60.0 * lib::exp(double(-t2))));
  return float(-2.0 * root * lib::sin(double(angle)));
}

// CIEDE2000's delta E_00 from the reference's colour to the distorted one's,
// with libvmaf's weights k_L = 0.65, k_C = 1, k_H = 4.
EXACTVQ_CIEDE_HD float delta_e_2000(const LabColor& c1, const LabColor& c2) {
  constexpr float kL = 0.65f, kC = 1.0f, kH = 4.0f;
  const float delta_l = c2.l - c1.l;
  const float l_bar = (c1.l + c2.l) / 2.0f;
  const float chroma1 = float(square_root(square(c1.a) + square(c1.b)));
  const float chroma2 = float(square_root(square(c2.a) + square(c2.b)));
  const float c_bar = (chroma1 + chroma2) / 2.0f;
  const double c_bar7 = lib::pow(double(c_bar), 7.0);
  const double g = 1.0 - square_root(c_bar7 / (c_bar7 + 6103515625.0));  // 25^7, exact
  const float a1 = float(double(c1.a) + double(c1.a / 2.0f) * g);
  const float a2 = float(double(c2.a) + double(c2.a / 2.0f) * g);
  const float c_prime1 = float(square_root(square(a1) + square(c1.b)));
  const float c_prime2 = float(square_root(square(a2) + square(c2.b)));
  const float c_bar_prime = (c_prime1 + c_prime2) / 2.0f;
  const float delta_c = c_prime2 - c_prime1;
  const double l_off2 = square(l_bar - 50.0f);
  const float s_l = float(1.0 + ((0.015 * l_off2) / square_root(20.0 + l_off2)));
  const float s_c = float(1.0 + 0.045 * double(c_bar_prime));
  const float h1 = hue_angle(c1.b, a1);
  const float h2 = hue_angle(c2.b, a2);
  const float delta_h = hue_difference(chroma1, chroma2, h1, h2);
  const float delta_big_h =
      float(2.0 * square_root(double(c_prime1 * c_prime2)) * lib::sin(double(delta_h) / 2.0));
  const float mean_h = mean_hue(h1, h2);
  const float t = hue_weighting(mean_h);
  const float s_h = float(1.0 + 0.015 * double(c_bar_prime) * double(t));
  const float r_t = rotation_term(c_bar_prime, mean_h);
  const float lightness = delta_l / (kL * s_l);
  const float chroma = delta_c / (kC * s_c);
  const float hue = delta_big_h / (kH * s_h);
  return float(
      square_root(square(lightness) + square(chroma) + square(hue) + double(r_t * chroma * hue)));
}

}  // namespace exactvq::ciede
