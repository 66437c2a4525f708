#include "metrics/float_ssim/reference.h"

#include <array>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq::float_ssim {

namespace {

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
    st.decimate_row(img, p.width, p.height, y, factor, k, sw,
                    into.samples.data() + size_t(y) * size_t(sw));
  if (&into == &p) {
    into.width = sw;
    into.height = sh;
    into.samples.resize(size_t(sw) * size_t(sh));
  }
}

void check_same_size(const PlaneView& ref, const PlaneView& dist, const char* where) {
  if (ref.width != dist.width || ref.height != dist.height)
    throw InputError(fmt::format("{}: the reference is {}x{} and the distorted picture {}x{}",
                                 where, ref.width, ref.height, dist.width, dist.height));
}

}  // namespace

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
  const FloatPlane &mu_ref = ws.mu_ref, &mu_cmp = ws.mu_cmp, &w_ref_sq = ws.w_ref_sq,
                   &w_cmp_sq = ws.w_cmp_sq, &w_both = ws.w_both;
  windowed(ref, st, ws.across, ws.mu_ref);
  windowed(cmp, st, ws.across, ws.mu_cmp);
  for (FloatPlane* p : {&ws.ref_sq, &ws.cmp_sq, &ws.both}) reshape(*p, ref.width, ref.height);
  for (int y = 0; y < ref.height; ++y)
    st.products(ref.row(y), cmp.row(y), ref.width, ws.ref_sq.row(y), ws.cmp_sq.row(y),
                ws.both.row(y));
  windowed(ws.ref_sq, st, ws.across, ws.w_ref_sq);
  windowed(ws.cmp_sq, st, ws.across, ws.w_cmp_sq);
  windowed(ws.both, st, ws.across, ws.w_both);

  const size_t row_len = static_cast<size_t>(ow);
  std::vector<double>&l = ws.l, &c = ws.c, &s = ws.s;
  for (std::vector<double>* v : {&l, &c, &s}) v->resize(row_len);
  double ssim_sum = 0.0, l_sum = 0.0, c_sum = 0.0, s_sum = 0.0;
  for (int y = 0; y < oh; ++y) {
    const TermRow row{mu_ref.row(y), mu_cmp.row(y), w_ref_sq.row(y), w_cmp_sq.row(y),
                      w_both.row(y)};
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

SsimScores float_ssim_reference(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                                const SsimOptions& o) {
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
  thread_local std::array<FloatPlane, kScales> r,
      d;  // kept from call to call, as ssim_means's planes
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

SsimScores float_ssim_with_stages(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                                  const SsimOptions& o, const FloatSsimStages& st) {
  check_same_size(ref, dist, "float_ssim");
  check_ssim_input(ref.width, ref.height, bitdepth, o, "float_ssim");
  const SsimMeans m =
      float_ssim_means(ref, dist, bitdepth, ssim_scale(ref.width, ref.height, o.scale), st);
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
  return ms_ssim_scores(float_ms_ssim_means(ref, dist, bitdepth, st), ref.width, ref.height,
                        bitdepth, o);
}

}  // namespace exactvq::float_ssim
