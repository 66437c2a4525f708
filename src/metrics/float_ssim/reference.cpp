#include "metrics/float_ssim/reference.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/ssim/decibels.h"

namespace exactvq::float_ssim {

namespace {

// The Gaussian's taps from the centre out.
constexpr float kWindowHalf[6] = {0.266012f, 0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f};

// The low-pass table's quadrant nearest the top-left corner, lower triangle
// (the table is symmetric about both axes and its diagonal): row r, column
// c <= r, counted from the corner.
constexpr float kLowPassCorner[15] = {
    0.000714f,                                                     // r0
    -0.000450f, 0.000283f,                                         // r1
    -0.002090f, 0.001316f, 0.006115f,                              // r2
    0.007132f,  -0.004490f, -0.020867f, 0.071207f,                 // r3
    0.016114f,  -0.010146f, -0.047149f, 0.160885f, 0.363505f,      // r4 (r4 c4: the centre)
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

// The quiet NaN x86-64 gives for 0.0 / 0.0 (sign bit set), rounded to binary32
// as libvmaf rounds its means: the same bits on every machine.
const float kNoPixelsNaN = std::bit_cast<float>(uint32_t{0xffc00000});

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

void reference_products(const float* ref, const float* cmp, int n, float* ref_sq, float* cmp_sq, float* both) {
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

void reference_decimate_row(const float* img, int width, int height, int y, int factor, const DecimationKernel& k,
                            int out_width, float* out) {
  const int half = k.size / 2;
  const int last = half - (k.size % 2 == 0 ? 1 : 0);  // taps -half .. last
  const int cy = y * factor;
  for (int x = 0; x < out_width; ++x) {
    const int cx = x * factor;
    double sum = 0.0;
    size_t t = 0;
    for (int v = -half; v <= last; ++v) {
      const float* row = img + size_t(mirror(cy + v, height)) * size_t(width);
      for (int u = -half; u <= last; ++u, ++t) sum += double(row[mirror(cx + u, width)] * k.taps[t]);
    }
    out[x] = float(sum);  // after every read: `out` may be `img`'s own row
  }
}

// Gives `p` a size, keeping its storage (every caller writes each sample
// before reading it): planes reused frame after frame fault no new pages in.
void reshape(FloatPlane& p, int w, int h) {
  p.width = w;
  p.height = h;
  p.samples.resize(size_t(w) * size_t(h));
}

// The window over a plane: every row horizontally (width - 10 outputs, into
// `across`), then each output row from 11 consecutive rows of that.
void windowed(const FloatPlane& p, const FloatSsimStages& st, FloatPlane& across, FloatPlane& out) {
  const int ow = p.width - (kWindow - 1), oh = p.height - (kWindow - 1);
  reshape(across, ow, p.height);
  reshape(out, ow, oh);
  for (int y = 0; y < p.height; ++y) st.window_horizontal(p.row(y), ow, across.row(y));
  std::array<const float*, kWindow> rows{};
  for (int y = 0; y < oh; ++y) {
    for (int k = 0; k < kWindow; ++k) rows[size_t(k)] = across.row(y + k);
    st.window_vertical(rows, ow, out.row(y));
  }
}

// Decimates `p` by `factor` into a new plane, or in place (into = &p).
void decimate(const FloatPlane& p, int factor, const DecimationKernel& k, const FloatSsimStages& st,
              FloatPlane& into) {
  const int sw = decimated_size(p.width, factor), sh = decimated_size(p.height, factor);
  if (&into != &p) reshape(into, sw, sh);
  const float* img = p.samples.data();
  for (int y = 0; y < sh; ++y)
    st.decimate_row(img, p.width, p.height, y, factor, k, sw, into.samples.data() + size_t(y) * size_t(sw));
  if (&into == &p) {
    into.width = sw;
    into.height = sh;
    into.samples.resize(size_t(sw) * size_t(sh));
  }
}

void check_same_size(const PlaneView& ref, const PlaneView& dist, const char* where) {
  if (ref.width != dist.width || ref.height != dist.height)
    throw InputError(fmt::format("{}: the reference is {}x{} and the distorted picture {}x{}", where, ref.width,
                                 ref.height, dist.width, dist.height));
}

void check_bit_depth(int bitdepth, const char* where) {
  if (!converts_bit_depth(bitdepth))
    throw InputError(fmt::format(
        "{}: bit depth {} has no float_ssim/float_ms_ssim value: libvmaf 3.2.0 converts 8, 10, 12 and 16 "
        "bits to float and reads other depths' 16-bit samples as bytes",
        where, bitdepth));
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

const std::array<float, kScales> kAlphas = {0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.1333f};
const std::array<float, kScales> kBetas = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};
const std::array<float, kScales> kGammas = kBetas;

const FloatSsimStages kReferenceStages{&reference_window_horizontal, &reference_window_vertical,
                                       &reference_products, &reference_terms, &reference_decimate_row};

bool converts_bit_depth(int bitdepth) {
  return bitdepth == 8 || bitdepth == 10 || bitdepth == 12 || bitdepth == 16;
}

FloatPlane load_plane(const PlaneView& p, int bitdepth) {
  FloatPlane out;
  load_plane_into(p, bitdepth, out);
  return out;
}

void load_plane_into(const PlaneView& p, int bitdepth, FloatPlane& out) {
  check_bit_depth(bitdepth, "float_ssim");
  reshape(out, p.width, p.height);
  // 10, 12, 16 bits: the sample over 4, 16, 256 in binary32 (exact), plus the
  // offset 0.
  const float divisor = bitdepth == 10 ? 4.0f : bitdepth == 12 ? 16.0f : 256.0f;
  for (int y = 0; y < p.height; ++y) {
    float* o = out.row(y);
    if (bitdepth == 8) {
      const uint8_t* in = p.row<uint8_t>(y);
      for (int x = 0; x < p.width; ++x) o[x] = float(in[x]);
    } else {
      const uint16_t* in = p.row<uint16_t>(y);
      for (int x = 0; x < p.width; ++x) o[x] = float(in[x]) / divisor + float(0);
    }
  }
}

SsimMeans ssim_means(const FloatPlane& ref, const FloatPlane& cmp, const FloatSsimStages& st) {
  const int ow = ref.width - (kWindow - 1), oh = ref.height - (kWindow - 1);
  // No window fits: libvmaf divides its empty sums by ow * oh all the same.
  if (ow <= 0 || oh <= 0) return means_of_sums(0.0, 0.0, 0.0, 0.0, ow, oh);
  // The planes, kept by each thread from call to call (reshaped, never freed).
  struct Workspace {
    FloatPlane across, mu_ref, mu_cmp, ref_sq, cmp_sq, both, w_ref_sq, w_cmp_sq, w_both;
    std::vector<double> l, c, s;
  };
  thread_local Workspace ws;
  const FloatPlane &mu_ref = ws.mu_ref, &mu_cmp = ws.mu_cmp, &w_ref_sq = ws.w_ref_sq, &w_cmp_sq = ws.w_cmp_sq,
                   &w_both = ws.w_both;
  windowed(ref, st, ws.across, ws.mu_ref);
  windowed(cmp, st, ws.across, ws.mu_cmp);
  for (FloatPlane* p : {&ws.ref_sq, &ws.cmp_sq, &ws.both}) reshape(*p, ref.width, ref.height);
  for (int y = 0; y < ref.height; ++y)
    st.products(ref.row(y), cmp.row(y), ref.width, ws.ref_sq.row(y), ws.cmp_sq.row(y), ws.both.row(y));
  windowed(ws.ref_sq, st, ws.across, ws.w_ref_sq);
  windowed(ws.cmp_sq, st, ws.across, ws.w_cmp_sq);
  windowed(ws.both, st, ws.across, ws.w_both);

  const size_t row_len = static_cast<size_t>(ow);
  std::vector<double> &l = ws.l, &c = ws.c, &s = ws.s;
  for (std::vector<double>* v : {&l, &c, &s}) v->resize(row_len);
  double ssim_sum = 0.0, l_sum = 0.0, c_sum = 0.0, s_sum = 0.0;
  for (int y = 0; y < oh; ++y) {
    const TermRow row{mu_ref.row(y), mu_cmp.row(y), w_ref_sq.row(y), w_cmp_sq.row(y), w_both.row(y)};
    st.terms(row, ow, l.data(), c.data(), s.data());
    // Raster order, one binary64 accumulator each.
    for (size_t x = 0; x < size_t(ow); ++x) {
      ssim_sum += l[x] * c[x] * s[x];
      l_sum += l[x];
      c_sum += c[x];
      s_sum += s[x];
    }
  }
  return means_of_sums(ssim_sum, l_sum, c_sum, s_sum, ow, oh);
}

SsimMeans means_of_sums(double ssim, double l, double c, double s, int ow, int oh) {
  const int count = ow * oh;
  if (count == 0) return {kNoPixelsNaN, kNoPixelsNaN, kNoPixelsNaN, kNoPixelsNaN};
  const double n = double(count);
  return {float(ssim / n), float(l / n), float(c / n), float(s / n)};
}

int decimated_size(int size, int factor) { return size / factor + (size & 1); }

bool decimation_fits(int size, int factor, int taps) {
  const int out = decimated_size(size, factor);
  if (out <= 0) return true;
  const int half = taps / 2, last = half - (taps % 2 == 0 ? 1 : 0);
  // The lowest index (-half) mirrors to half - 1; the highest must mirror to >= 0.
  return half <= size && (out - 1) * factor + last < 2 * size;
}

int ssim_scale(int width, int height, int scale_option) {
  if (scale_option > 0) return scale_option;
  const float a = float(std::min(width, height)) / 256.0f;
  const int sign = a > 0.0f ? 1 : -1;
  const int whole = int(a);
  const int rounded = double(a - float(whole)) >= 0.5 ? whole + sign : whole;
  return std::max(1, rounded);
}

void check_ssim_input(int width, int height, int bitdepth, const SsimOptions& o, const char* where) {
  check_bit_depth(bitdepth, where);
  const int scale = ssim_scale(width, height, o.scale);
  if (scale > 1 && (!decimation_fits(width, scale, scale) || !decimation_fits(height, scale, scale)))
    throw InputError(fmt::format(
        "{}: a {}x{} picture is too small for scale={}: libvmaf's {}x{} box filter would read outside it",
        where, width, height, scale, scale, scale));
}

void check_ms_ssim_input(int width, int height, int bitdepth, const char* where) {
  check_bit_depth(bitdepth, where);
  if (width < kMsSsimMinSide || height < kMsSsimMinSide)
    throw InputError(fmt::format(
        "{}: float_ms_ssim cannot score a {}x{} picture: libvmaf refuses pictures under {} pixels in width or "
        "height (its fifth scale would be narrower than the 11x11 window)",
        where, width, height, kMsSsimMinSide));
}

double max_db(int width, int height, int bitdepth, bool clip_db) {
  // libvmaf's float_ssim and integer ssim share the formulas (spec/ssim.md "Decibels").
  if (!clip_db) return std::numeric_limits<double>::infinity();
  return ssim::clip_db_limit((uint32_t{1} << bitdepth) - 1, width, height);
}

double to_db(double score, double max) { return ssim::to_db(score, max); }

SsimScores float_ssim_reference(const PlaneView& ref, const PlaneView& dist, int bitdepth, const SsimOptions& o) {
  return float_ssim_with_stages(ref, dist, bitdepth, o, kReferenceStages);
}

SsimMeans float_ssim_means(const PlaneView& ref, const PlaneView& dist, int bitdepth, int factor,
                           const FloatSsimStages& st) {
  thread_local FloatPlane r, d;  // kept from call to call, as ssim_means's planes
  load_plane_into(ref, bitdepth, r);
  load_plane_into(dist, bitdepth, d);
  if (factor > 1) {
    // A box filter of factor x factor taps, each 1 / factor^2 in binary32, in place.
    const std::vector<float> taps(size_t(factor) * size_t(factor), 1.0f / float(factor * factor));
    const DecimationKernel box{factor, taps};
    decimate(r, factor, box, st, r);
    decimate(d, factor, box, st, d);
  }
  return ssim_means(r, d, st);
}

ScaleMeans float_ms_ssim_means(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                               const FloatSsimStages& st) {
  const LowPassTable& lpf = low_pass_table();
  const DecimationKernel low_pass{kLowPass, {&lpf[0][0], size_t(kLowPass * kLowPass)}};
  thread_local std::array<FloatPlane, kScales> r, d;  // kept from call to call, as ssim_means's planes
  load_plane_into(ref, bitdepth, r[0]);
  load_plane_into(dist, bitdepth, d[0]);
  for (size_t i = 1; i < size_t(kScales); ++i) {
    decimate(r[i - 1], 2, low_pass, st, r[i]);
    decimate(d[i - 1], 2, low_pass, st, d[i]);
  }
  ScaleMeans means;
  for (size_t i = 0; i < size_t(kScales); ++i) means[i] = ssim_means(r[i], d[i], st);
  return means;
}

SsimScores ssim_scores(const SsimMeans& m, int width, int height, int bitdepth, const SsimOptions& o) {
  SsimScores out{double(m.ssim), double(m.l), double(m.c), double(m.s)};
  if (o.enable_db) out.ssim = to_db(out.ssim, max_db(width, height, bitdepth, o.clip_db));
  return out;
}

MsSsimScores ms_ssim_scores(const ScaleMeans& means, int width, int height, int bitdepth,
                            const MsSsimOptions& o) {
  MsSsimScores out;
  double product = 1.0;
  for (size_t i = 0; i < size_t(kScales); ++i) {
    const SsimMeans& m = means[i];
    // glibc's binary64 pow of each binary32 mean to its binary32 exponent.
    product *= std::pow(double(m.l), double(kAlphas[i])) * std::pow(double(m.c), double(kBetas[i])) *
               std::pow(double(m.s), double(kGammas[i]));
    out.l[i] = double(m.l);
    out.c[i] = double(m.c);
    out.s[i] = double(m.s);
    if (product == std::numeric_limits<double>::infinity())
      throw InputError(fmt::format("float_ms_ssim: the product of the scales is infinite at scale {} (libvmaf "
                                   "fails the frame)",
                                   i));
  }
  out.ms_ssim = o.enable_db ? to_db(product, max_db(width, height, bitdepth, o.clip_db)) : product;
  return out;
}

SsimScores float_ssim_with_stages(const PlaneView& ref, const PlaneView& dist, int bitdepth, const SsimOptions& o,
                                  const FloatSsimStages& st) {
  check_same_size(ref, dist, "float_ssim");
  check_ssim_input(ref.width, ref.height, bitdepth, o, "float_ssim");
  const SsimMeans m = float_ssim_means(ref, dist, bitdepth, ssim_scale(ref.width, ref.height, o.scale), st);
  return ssim_scores(m, ref.width, ref.height, bitdepth, o);
}

MsSsimScores float_ms_ssim_reference(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                                     const MsSsimOptions& o) {
  return float_ms_ssim_with_stages(ref, dist, bitdepth, o, kReferenceStages);
}

MsSsimScores float_ms_ssim_with_stages(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                                       const MsSsimOptions& o, const FloatSsimStages& st) {
  check_same_size(ref, dist, "float_ms_ssim");
  check_ms_ssim_input(ref.width, ref.height, bitdepth, "float_ms_ssim");
  return ms_ssim_scores(float_ms_ssim_means(ref, dist, bitdepth, st), ref.width, ref.height, bitdepth, o);
}

}  // namespace exactvq::float_ssim
