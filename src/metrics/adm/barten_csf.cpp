// The numbers below are libvmaf 3.2.0's (barten_csf_tools.h), as float
// literals; every step keeps libvmaf's types: float where it stores a float,
// binary64 where C promotes (a float operand meeting a double, pow, exp).
#include "metrics/adm/barten_csf.h"

#include "libm/libm.h"

namespace exactvq::adm {

namespace {

constexpr double kPi = 3.14159265358979323846264338327;

// The luminances (cd/m^2) at which HDR-VDP-2's CSF parameters were fitted,
// and the four parameters at each (the fit's first column is unused).
constexpr float kAnchorLuminance[6] = {0.002f, 0.02f, 0.2f, 2.0f, 20.0f, 150.0f};
constexpr float kAnchorParams[6][4] = {
    {0.991265f, 3.74038f, 0.50722f, 4.46044f},  {0.800889f, 3.54104f, 0.682505f, 4.94958f},
    {0.476505f, 4.37453f, 0.750315f, 5.28678f}, {0.405782f, 4.40602f, 0.935314f, 5.61425f},
    {0.334278f, 3.79542f, 1.07327f, 6.4635f},   {0.394533f, 2.7755f, 1.16577f, 7.45665f}};

// The rod-cone sensitivity's constants (Mantiuk et al.'s p5..p8).
constexpr float kRodCone[4] = {30.162f, 4.0627f, 1.6596f, 0.2712f};

// The optical MTF: a sum of four decaying exponentials a_i exp(-b_i f).
constexpr float kMtfA[4] = {0.424838596301290f, 0.572435103936480f, 0.000167576239164937f,
                            0.00255872352306433f};
constexpr float kMtfB[4] = {0.028f, 0.37f, 37.0f, 360.0f};

// libvmaf always evaluates Barten's CSF at this adaptation luminance.
constexpr double kLuminance = 100.0;

// left + ((right - left) / (x1 - x0)) * (x - x0), all in float.
float interpolate(float x0, float left, float x1, float right, float x) {
  const float slope = (right - left) / (x1 - x0);
  return left + slope * (x - x0);
}

// The luminance-dependent sensitivity (its argument is a float in libvmaf).
float rod_cone_sensitivity(float luminance) {
  const float ratio = kRodCone[1] / luminance;
  const double inner = libm::pow(double(ratio), double(kRodCone[2])) + 1;
  return static_cast<float>(double(kRodCone[0]) * libm::pow(inner, double(-kRodCone[3])));
}

float optical_mtf(float frequency) {
  float mtf = 0.0f;
  for (int i = 0; i < 4; ++i) {
    const float exponent = -kMtfB[i] * frequency;
    mtf = static_cast<float>(double(mtf) + double(kMtfA[i]) * libm::exp(double(exponent)));
  }
  return mtf;
}

// One blended table: [diagonal][lambda].
using BlendTable = float[2][4];

constexpr BlendTable k1080At3 = {{0.01183f, 0.025026f, 0.04295f, 0.058621f},
                                 {0.004302f, 0.011778f, 0.023918f, 0.035901f}};
constexpr BlendTable k1080At5 = {{0.004212f, 0.014809f, 0.029642f, 0.047464f},
                                 {0.000984f, 0.005852f, 0.0146f, 0.027574f}};
constexpr BlendTable k2160At3 = {{0.00226f, 0.01183f, 0.025026f, 0.04295f},
                                 {0.000479f, 0.004302f, 0.011778f, 0.023918f}};
constexpr BlendTable k2160At5 = {{0.000092f, 0.004212f, 0.014809f, 0.029642f},
                                 {0.000050f, 0.000984f, 0.005852f, 0.0146f}};
constexpr BlendTable k720At3 = {{0.018715f, 0.035637f, 0.052798f, 0.061509f},
                                {0.007999f, 0.018396f, 0.031851f, 0.037718f}};
constexpr BlendTable k720At5 = {{0.010144f, 0.022561f, 0.040309f, 0.05672f},
                                {0.003463f, 0.010282f, 0.021839f, 0.034641f}};
constexpr BlendTable k480At3 = {{0.027961f, 0.045875f, 0.060275f, 0.056234f},
                                {0.013572f, 0.026277f, 0.036959f, 0.034511f}};
constexpr BlendTable k480At5 = {{0.016781f, 0.032822f, 0.05032f, 0.061594f},
                                {0.00691f, 0.016545f, 0.029917f, 0.037777f}};

// adm_csf_mode 3: the same blend refitted under a mean-absolute-error loss.
constexpr BlendTable k1080At3Mae = {{0.011249f, 0.022606f, 0.035930f, 0.045673f},
                                    {0.004097f, 0.010921f, 0.021430f, 0.031313f}};
constexpr BlendTable k1080At5Mae = {{0.004052f, 0.013939f, 0.026298f, 0.038833f},
                                    {0.000927f, 0.005544f, 0.013415f, 0.024515f}};
constexpr BlendTable k2160At3Mae = {{0.002166f, 0.011249f, 0.022606f, 0.035930f},
                                    {0.000447f, 0.004097f, 0.010921f, 0.021430f}};
constexpr BlendTable k2160At5Mae = {{0.000077f, 0.004052f, 0.013939f, 0.026298f},
                                    {0.000045f, 0.000927f, 0.005544f, 0.013415f}};
constexpr BlendTable k720At3Mae = {{0.017329f, 0.030870f, 0.042134f, 0.047410f},
                                   {0.007509f, 0.016707f, 0.028072f, 0.032722f}};
constexpr BlendTable k720At5Mae = {{0.009689f, 0.020577f, 0.034162f, 0.044523f},
                                   {0.003302f, 0.009579f, 0.019661f, 0.030318f}};
constexpr BlendTable k480At3Mae = {{0.024969f, 0.037825f, 0.046676f, 0.043974f},
                                   {0.012511f, 0.023424f, 0.032139f, 0.030166f}};
constexpr BlendTable k480At5Mae = {{0.015665f, 0.028766f, 0.040612f, 0.047483f},
                                   {0.006514f, 0.015107f, 0.026476f, 0.032776f}};

struct BlendGeometry {
  int ref_display_height;
  double norm_view_dist;  // compared exactly, as libvmaf does
  const BlendTable* table;
  const BlendTable* table_mae;
};

// 2160 rows at 1.5 H subtend the same angle per pixel as 1080 rows at 3 H and
// share their table.
constexpr BlendGeometry kBlendGeometries[] = {
    {1080, 3.0, &k1080At3, &k1080At3Mae}, {1080, 5.0, &k1080At5, &k1080At5Mae},
    {2160, 1.5, &k1080At3, &k1080At3Mae}, {2160, 3.0, &k2160At3, &k2160At3Mae},
    {2160, 5.0, &k2160At5, &k2160At5Mae}, {720, 3.0, &k720At3, &k720At3Mae},
    {720, 5.0, &k720At5, &k720At5Mae},    {480, 3.0, &k480At3, &k480At3Mae},
    {480, 5.0, &k480At5, &k480At5Mae},
};

}  // namespace

float barten_csf(int lambda, double norm_view_dist, int ref_display_height, double scale) {
  // Pixels per degree, then the nominal frequency of the scale's band (half
  // the resolution at scale 0, halving with each scale).
  const float r = static_cast<float>(norm_view_dist * ref_display_height * kPi / 180.0);
  const float frequency = static_cast<float>(r / libm::pow(2.0, lambda + 1));

  // The parameters interpolated linearly in log10 of the luminance between
  // the two anchors around it (100 lies between 20 and 150).
  double luminance = kLuminance;
  if (luminance > kAnchorLuminance[5]) luminance = kAnchorLuminance[5];
  if (luminance < kAnchorLuminance[0]) luminance = kAnchorLuminance[0];
  int left = 0, right = 0;
  for (int i = 0; i < 5; ++i) {
    if (luminance >= kAnchorLuminance[i] && luminance <= kAnchorLuminance[i + 1]) {
      left = i;
      right = i + 1;
      break;
    }
  }
  const float x0 = static_cast<float>(libm::log10(kAnchorLuminance[left]));
  const float x1 = static_cast<float>(libm::log10(kAnchorLuminance[right]));
  const float x = static_cast<float>(libm::log10(luminance));
  float p[4];
  for (int k = 0; k < 4; ++k)
    p[k] = interpolate(x0, kAnchorParams[left][k], x1, kAnchorParams[right][k], x);

  // The neural CSF p3 / sqrt(a b).
  const float a = static_cast<float>(1.0f + libm::pow(double(p[0] * frequency), double(p[1])));
  const double low_cut = 1 - libm::exp(-libm::pow(double(frequency / 7), 2.0));
  const float b = static_cast<float>(1.0f / libm::pow(low_cut, double(p[2])));
  const float neural = static_cast<float>(double(p[3]) / libm::pow(double(a * b), 0.5));

  const float product = neural * optical_mtf(frequency) * rod_cone_sensitivity(float(kLuminance));
  return static_cast<float>(double(product) * scale);
}

std::optional<float> blended_csf(int lambda, bool diagonal, bool mae, double norm_view_dist,
                                 int ref_display_height) {
  for (const BlendGeometry& g : kBlendGeometries)
    if (g.ref_display_height == ref_display_height && g.norm_view_dist == norm_view_dist)
      return (*(mae ? g.table_mae : g.table))[diagonal ? 1 : 0][lambda];
  return std::nullopt;
}

}  // namespace exactvq::adm
