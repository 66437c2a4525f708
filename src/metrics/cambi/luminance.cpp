#include "metrics/cambi/luminance.h"

#include "libm/libm.h"

namespace exactvq::cambi {

namespace {

constexpr double kGamma = 2.4;
constexpr double kWhite = 300.0;
constexpr double kBlack = 0.01;

}  // namespace

// Each pow is evaluated in full every call, in libvmaf's order: the constants
// a and b are not folded, so that their bits are the C library's.
double bt1886_eotf(double v) {
  const double a =
      libm::pow(libm::pow(kWhite, 1.0 / kGamma) - libm::pow(kBlack, 1.0 / kGamma), kGamma);
  const double b = libm::pow(kBlack, 1.0 / kGamma) /
                   (libm::pow(kWhite, 1.0 / kGamma) - libm::pow(kBlack, 1.0 / kGamma));
  const double shifted = v + b;
  return a * libm::pow(shifted > 0 ? shifted : 0.0, kGamma);
}

double pq_eotf(double v) {
  const double m1 = 0.1593017578125;
  const double m2 = 78.84375;
  const double c1 = 0.8359375;
  const double c2 = 18.8515625;
  const double c3 = 18.6875;
  const double num = libm::pow(v, 1.0 / m2) - c1;
  const double num_clipped = num > 0 ? num : 0.0;
  const double den = c2 - c3 * libm::pow(v, 1.0 / m2);
  return 10000 * libm::pow(num_clipped / den, 1.0 / m1);
}

double luminance(int code, Eotf eotf) {
  const int clipped = code < kLumaFoot ? kLumaFoot : code > kLumaHead ? kLumaHead : code;
  const double normalised = double(clipped - kLumaFoot) / (kLumaHead - kLumaFoot);
  return eotf == Eotf::kPq ? pq_eotf(normalised) : bt1886_eotf(normalised);
}

}  // namespace exactvq::cambi
