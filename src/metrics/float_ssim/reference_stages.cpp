// The definition's filters (the window's taps, MS-SSIM's low-pass table), its
// constants, and the scalar row stages (kReferenceStages).
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "metrics/float_ssim/reference.h"

namespace exactvq::float_ssim {

namespace {

// The Gaussian's taps from the centre out.
constexpr float kWindowHalf[6] = {0.266012f, 0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f};

// The low-pass table's quadrant nearest the top-left corner, lower triangle
// (the table is symmetric about both axes and its diagonal): row r, column
// c <= r, counted from the corner.
constexpr float kLowPassCorner[15] = {
    0.000714f,                                                 // r0
    -0.000450f, 0.000283f,                                     // r1
    -0.002090f, 0.001316f,  0.006115f,                         // r2
    0.007132f,  -0.004490f, -0.020867f, 0.071207f,             // r3
    0.016114f,  -0.010146f, -0.047149f, 0.160885f, 0.363505f,  // r4 (r4 c4: the centre)
};

std::array<float, kWindow> window_taps() {
  std::array<float, kWindow> t{};
  for (int k = 0; k < kWindow; ++k) t[size_t(k)] = kWindowHalf[std::abs(k - kWindow / 2)];
  return t;
}

LowPassTable make_low_pass() {
  LowPassTable t{};
  for (int i = 0; i < kLowPass; ++i)
    for (int j = 0; j < kLowPass; ++j) {
      int r = std::min(i, kLowPass - 1 - i), c = std::min(j, kLowPass - 1 - j);
      if (c > r) std::swap(r, c);
      t[size_t(i)][size_t(j)] = kLowPassCorner[r * (r + 1) / 2 + c];
    }
  return t;
}

// libvmaf's MAX(0.0, v) stored back to binary32: a NaN or a -0 stays.
float floor_at_zero(float v) { return 0.0 > double(v) ? 0.0f : v; }

// iqa's KBND_SYMMETRIC: one reflection about the edge, the edge sample repeated.
int mirror(int i, int n) {
  if (i < 0) return -1 - i;
  if (i >= n) return 2 * n - i - 1;
  return i;
}

void reference_window_horizontal(const float* in, int out_width, float* out) {
  for (int x = 0; x < out_width; ++x) {
    double sum = 0.0;
    for (int k = 0; k < kWindow; ++k) sum += double(in[x + k] * kWindowTaps[size_t(k)]);
    out[x] = float(sum);
  }
}

void reference_window_vertical(std::span<const float* const> rows, int width, float* out) {
  for (int x = 0; x < width; ++x) {
    double sum = 0.0;
    for (int k = 0; k < kWindow; ++k) sum += double(rows[size_t(k)][x] * kWindowTaps[size_t(k)]);
    out[x] = float(sum);
  }
}

void reference_products(const float* ref, const float* cmp, int n, float* ref_sq, float* cmp_sq,
                        float* both) {
  for (int x = 0; x < n; ++x) {
    ref_sq[x] = ref[x] * ref[x];
    cmp_sq[x] = cmp[x] * cmp[x];
    both[x] = ref[x] * cmp[x];
  }
}

void reference_terms(const TermRow& in, int n, double* l, double* c, double* s) {
  const SsimConstants k = ssim_constants();
  for (int x = 0; x < n; ++x) {
    const float mu1 = in.mu_ref[x], mu2 = in.mu_cmp[x];
    // The variances and covariance in binary32; negative variances become 0.
    const float var1 = floor_at_zero(in.ref_sq[x] - mu1 * mu1);
    const float var2 = floor_at_zero(in.cmp_sq[x] - mu2 * mu2);
    const float cov = in.both[x] - mu1 * mu2;
    // sqrt in binary64 of the binary32 product, rounded to binary32.
    const float sd12 = float(std::sqrt(double(var1 * var2)));
    // Numerators in binary64, denominators summed in binary32, quotient in binary64.
    const float lum_den = mu1 * mu1 + mu2 * mu2 + k.c1;
    l[x] = (2.0 * double(mu1) * double(mu2) + double(k.c1)) / double(lum_den);
    const float con_den = var1 + var2 + k.c2;
    c[x] = (2.0 * double(sd12) + double(k.c2)) / double(con_den);
    // A flat window whose covariance came out negative counts as covariance 0.
    const float cov_kept = (cov < 0.0f && sd12 <= 0.0f) ? 0.0f : cov;
    // The structure term is a binary32 quotient.
    const float st = (cov_kept + k.c3) / (sd12 + k.c3);
    s[x] = double(st);
  }
}

void reference_decimate_row(const float* img, int width, int height, int y, int factor,
                            const DecimationKernel& k, int out_width, float* out) {
  const int half = k.size / 2;
  const int last = half - (k.size % 2 == 0 ? 1 : 0);  // taps -half .. last
  const int cy = y * factor;
  for (int x = 0; x < out_width; ++x) {
    const int cx = x * factor;
    double sum = 0.0;
    size_t t = 0;
    for (int v = -half; v <= last; ++v) {
      const float* row = img + size_t(mirror(cy + v, height)) * size_t(width);
      for (int u = -half; u <= last; ++u, ++t)
        sum += double(row[mirror(cx + u, width)] * k.taps[t]);
    }
    out[x] = float(sum);  // after every read: `out` may be `img`'s own row
  }
}

}  // namespace

const std::array<float, kWindow> kWindowTaps = window_taps();

SsimConstants ssim_constants() {
  const float k1 = 0.01f, k2 = 0.03f, peak = float(255);
  const float a = k1 * peak, b = k2 * peak;
  const float c2 = b * b;
  return {a * a, c2, c2 / 2.0f};
}

const LowPassTable& low_pass_table() {
  static const LowPassTable table = make_low_pass();
  return table;
}

const FloatSsimStages kReferenceStages{&reference_window_horizontal, &reference_window_vertical,
                                       &reference_products, &reference_terms,
                                       &reference_decimate_row};

}  // namespace exactvq::float_ssim
