// Rows of float_ssim's CPU SIMD stages beside its scalar reference
// (metrics/float_ssim/reference.cpp): each stage of cpu/float_ssim_simd.h on
// seeded rows, and whole frames (float_ssim_simd and float_ms_ssim_simd
// against the reference), per SIMD target.
#include <algorithm>
#include <bit>
#include <cmath>
#include <exception>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cpu_rows.h"
#include "metrics/float_ssim/cpu/float_ssim_simd.h"
#include "metrics/float_ssim/reference.h"
#include "metrics/float_ssim/softfp_terms.h"
#include "ssim/plane_fixture.h"

namespace exactvq::twins {
namespace {

namespace fs = float_ssim;

// Contents of rows: samples of a bit depth converted as libvmaf converts them
// (v / 2^(bits - 8)), products of two such samples (what the window sees
// second), and arbitrary finite floats (wide exponents, either sign,
// subnormals) for the window passes and decimation.
enum Fill { kRandom, kZero, kPeak, kChecker, kSmoothNoisy, kProducts, kArbitrary };
const char* const kFillNames[] = {
    "random", "zero", "peak", "checkerboard", "smooth with noise", "products", "arbitrary floats"};
constexpr int kFills = 7;

float sample_value(uint32_t v, int bits) { return float(v) / float(1u << (bits - 8)); }

float fill_value(int fill, int bits, int x, int y, std::mt19937_64& rng) {
  const uint32_t max = (1u << bits) - 1;
  switch (fill) {
    case kRandom:
      return sample_value(uint32_t(rng() % (max + 1)), bits);
    case kZero:
      return 0.0f;
    case kPeak:
      return sample_value(max, bits);
    case kChecker:
      return ((x + y) & 1) ? sample_value(max, bits) : 0.0f;
    case kSmoothNoisy: {
      const int64_t v = int64_t(uint64_t(x * 5 + y * 11) * max / 800 % (uint64_t(max) + 1)) +
                        int64_t(rng() % 9) - 4;
      return sample_value(uint32_t(std::clamp<int64_t>(v, 0, max)), bits);
    }
    case kProducts: {
      const float a = sample_value(uint32_t(rng() % (max + 1)), bits);
      const float b = sample_value(uint32_t(rng() % (max + 1)), bits);
      return a * b;
    }
    default: {
      // Mantissa and exponent drawn apart: 2^-140 (subnormal) to 2^60, either sign.
      const float m = float(rng() % (1u << 24)) / float(1u << 24);
      const int e = int(rng() % 201) - 140;
      const float v = std::ldexp(m, e);
      return (rng() & 1) ? -v : v;
    }
  }
}

std::vector<float> make_row(const Case& c, int n, int y, std::mt19937_64& rng) {
  std::vector<float> row(size_t(std::max(n, 0)));
  for (int x = 0; x < n; ++x) row[size_t(x)] = fill_value(c.fill, c.bits, x, y, rng);
  return row;
}

std::string case_text(const Case& c) {
  return std::to_string(c.width) + " wide, " + std::to_string(c.bits) + "-bit, " +
         kFillNames[c.fill];
}

// Cases for a row stage: widths 1..70 and beyond, every bit depth, every
// fill at widths up to 20 and at 1920 (one drawn fill elsewhere); timed: 1920
// wide, 8-bit random.
std::vector<Case> stage_cases(uint64_t base) {
  std::vector<Case> all;
  std::vector<int> widths;
  for (int w = 1; w <= 70; ++w) widths.push_back(w);
  for (int w : {127, 129, 960, 1920, 1921}) widths.push_back(w);
  std::mt19937_64 rng(base);
  for (int bits : {8, 10, 12, 16})
    for (int w : widths)
      for (int fill = 0; fill < kFills; ++fill) {
        if (w > 20 && w != 1920 && fill != int(rng() % kFills)) continue;
        Case c;
        c.seed = case_seed(base, all.size());
        c.bits = bits;
        c.width = w;
        c.fill = fill;
        c.what = case_text(c);
        all.push_back(c);
      }
  Case c;
  c.seed = case_seed(base + 1, all.size());
  c.width = 1920;
  c.timed = true;
  c.what = case_text(c) + ", timed";
  all.push_back(c);
  return all;
}

// ---- float_ssim.window_horizontal: `width` outputs from width + 10 samples.
Prepared window_horizontal_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  const auto in =
      std::make_shared<const std::vector<float>>(make_row(c, c.width + fs::kWindow - 1, 0, rng));
  const int w = c.width;
  auto run = [in, w](auto stage) {
    std::vector<float> out(static_cast<size_t>(w));
    stage(in->data(), w, out.data());
    Bytes b;
    put(b, out);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(fs::cpu::window_horizontal); };
  p.reference = [run] { return run(fs::kReferenceStages.window_horizontal); };
  return p;
}

// ---- float_ssim.window_horizontal/softfp: the same outputs with each tap sum
// on softfp (softfp_terms.h's tap sum and rounding to binary32, as the OpenCL
// kernels add them), every fill: samples and products take the tap sum's exact
// integer path, arbitrary floats (subnormal products and results, wide
// exponents, cancellation) mostly its one-by-one path.
void softfp_window_horizontal(const float* in, int out_width, float* out) {
  for (int x = 0; x < out_width; ++x) {
    uint32_t products[fs::kWindow];
    for (int k = 0; k < fs::kWindow; ++k)
      products[k] = std::bit_cast<uint32_t>(in[x + k] * fs::kWindowTaps[size_t(k)]);
    out[x] =
        std::bit_cast<float>(softfp_to_f32_bits(float_ssim_soft_tap_sum(products, fs::kWindow)));
  }
}

Prepared softfp_window_horizontal_case(const Case& c) {
  Prepared p = window_horizontal_case(c);
  std::mt19937_64 rng(c.seed);
  const auto in =
      std::make_shared<const std::vector<float>>(make_row(c, c.width + fs::kWindow - 1, 0, rng));
  const int w = c.width;
  p.twin = [in, w] {
    std::vector<float> out(static_cast<size_t>(w));
    softfp_window_horizontal(in->data(), w, out.data());
    Bytes b;
    put(b, out);
    return b;
  };
  return p;
}

// ---- float_ssim.window_vertical: one output row from 11 rows, each its own buffer.
Prepared window_vertical_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  struct In {
    std::vector<std::vector<float>> rows;
    std::vector<const float*> pointers;
  };
  auto in = std::make_shared<In>();
  for (int k = 0; k < fs::kWindow; ++k) in->rows.push_back(make_row(c, c.width, k, rng));
  for (const auto& r : in->rows) in->pointers.push_back(r.data());
  const int w = c.width;
  auto run = [in, w](auto stage) {
    std::vector<float> out(static_cast<size_t>(w));
    stage(std::span<const float* const>(in->pointers), w, out.data());
    Bytes b;
    put(b, out);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(fs::cpu::window_vertical); };
  p.reference = [run] { return run(fs::kReferenceStages.window_vertical); };
  return p;
}

// ---- float_ssim.products: the three products of two rows.
Prepared products_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  struct In {
    std::vector<float> ref, cmp;
  };
  auto in = std::make_shared<In>();
  in->ref = make_row(c, c.width, 0, rng);
  in->cmp = make_row(c, c.width, 1, rng);
  if (c.fill == kChecker) std::reverse(in->cmp.begin(), in->cmp.end());
  const int w = c.width;
  auto run = [in, w](auto stage) {
    std::vector<float> a(static_cast<size_t>(w)), b(static_cast<size_t>(w)),
        ab(static_cast<size_t>(w));
    stage(in->ref.data(), in->cmp.data(), w, a.data(), b.data(), ab.data());
    Bytes out;
    put(out, a);
    put(out, b);
    put(out, ab);
    return out;
  };
  Prepared p;
  p.twin = [run] { return run(fs::cpu::products); };
  p.reference = [run] { return run(fs::kReferenceStages.products); };
  return p;
}

// ---- float_ssim.terms: one row of terms. The means are samples of the bit
// depth (or the fill's); the windowed squares and product are the means'
// products plus a variance and covariance drawn per pixel: positive, zero,
// just below zero (floored), a flat window with a negative covariance (kept
// at 0), the extremes. kArbitrary: every input an independent sample value
// or product.
struct TermInputs {
  std::vector<float> mu1, mu2, s11, s22, s12;
};

std::shared_ptr<const TermInputs> term_inputs(const Case& c) {
  std::mt19937_64 rng(c.seed);
  const int w = c.width;
  auto in = std::make_shared<TermInputs>();
  for (auto* v : {&in->mu1, &in->mu2, &in->s11, &in->s22, &in->s12})
    v->resize(static_cast<size_t>(w));
  const float peak = sample_value((1u << c.bits) - 1, c.bits);
  for (int x = 0; x < w; ++x) {
    const size_t i = size_t(x);
    if (c.fill == kArbitrary) {
      in->mu1[i] = fill_value(kRandom, c.bits, x, 0, rng);
      in->mu2[i] = fill_value(kRandom, c.bits, x, 0, rng);
      in->s11[i] = fill_value(kProducts, c.bits, x, 0, rng);
      in->s22[i] = fill_value(kProducts, c.bits, x, 0, rng);
      in->s12[i] = fill_value(kProducts, c.bits, x, 0, rng);
      continue;
    }
    const int mean_fill = c.fill == kProducts ? kRandom : c.fill;
    const float mu1 = fill_value(mean_fill, c.bits, x, 0, rng);
    const float mu2 = c.fill == kChecker ? peak - mu1 : fill_value(mean_fill, c.bits, x, 1, rng);
    const float m11 = mu1 * mu1, m22 = mu2 * mu2, m12 = mu1 * mu2;
    in->mu1[i] = mu1;
    in->mu2[i] = mu2;
    const int kind =
        c.fill == kRandom || c.fill == kSmoothNoisy || c.fill == kProducts ? int(rng() % 6) : 0;
    switch (kind) {
      case 0:  // what the fill gives: no variance
        in->s11[i] = m11;
        in->s22[i] = m22;
        in->s12[i] = m12;
        break;
      case 1: {  // variances and a covariance within their bound
        const float v1 = float(rng() % 1000000) / 64.0f, v2 = float(rng() % 1000000) / 64.0f;
        const float bound = std::sqrt(v1 * v2);
        in->s11[i] = m11 + v1;
        in->s22[i] = m22 + v2;
        in->s12[i] = m12 + bound * (float(int(rng() % 2001) - 1000) / 1000.0f);
        break;
      }
      case 2:  // rounding below the means' squares: floored variances
        in->s11[i] = std::nextafter(m11, -1.0f);
        in->s22[i] = std::nextafter(m22, -1.0f);
        in->s12[i] = std::nextafter(m12, -1.0f);
        break;
      case 3:  // one flat window, a negative covariance: kept as 0
        in->s11[i] = m11;
        in->s22[i] = m22 + float(rng() % 5000);
        in->s12[i] = m12 - float(rng() % 50 + 1);
        break;
      case 4:  // tiny variances
        in->s11[i] = std::nextafter(m11, 1e30f);
        in->s22[i] = std::nextafter(m22, 1e30f);
        in->s12[i] = std::nextafter(m12, (rng() & 1) ? 1e30f : -1.0f);
        break;
      default:  // the largest variance the samples allow
        in->s11[i] = m11 + peak * peak / 4.0f;
        in->s22[i] = m22 + peak * peak / 4.0f;
        in->s12[i] = m12 - peak * peak / 4.0f;
        break;
    }
  }
  return in;
}

Prepared terms_case(const Case& c) {
  const std::shared_ptr<const TermInputs> in = term_inputs(c);
  const int w = c.width;
  auto run = [in, w](auto stage) {
    std::vector<double> l(static_cast<size_t>(w)), cc(static_cast<size_t>(w)),
        s(static_cast<size_t>(w));
    const fs::TermRow row{in->mu1.data(), in->mu2.data(), in->s11.data(), in->s22.data(),
                          in->s12.data()};
    stage(row, w, l.data(), cc.data(), s.data());
    Bytes b;
    put(b, l);
    put(b, cc);
    put(b, s);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(fs::cpu::terms); };
  p.reference = [run] { return run(fs::kReferenceStages.terms); };
  return p;
}

// ---- float_ssim.terms_lcs/softfp: the terms with their binary64 steps on
// softfp (metrics/float_ssim/softfp_terms.h, the form for devices without
// fp64; binary32 steps as the reference has them, but for the quotient s,
// which is softfp's too: softfp_f32_div), and the SSIM term (l * c) *
// s, beside the reference's terms and their product in binary64. Not for
// arbitrary floats: softfp takes finite operands and results, which every
// picture's windows give (no bytes on either side).

uint32_t bits_of_float(float v) { return std::bit_cast<uint32_t>(v); }

void softfp_terms(const fs::TermRow& in, int n, double* l, double* c, double* s, double* lcs) {
  const fs::SsimConstants k = fs::ssim_constants();
  for (int x = 0; x < n; ++x) {
    const float mu1 = in.mu_ref[x], mu2 = in.mu_cmp[x];
    const float v1 = in.ref_sq[x] - mu1 * mu1, v2 = in.cmp_sq[x] - mu2 * mu2;
    const float var1 = 0.0 > double(v1) ? 0.0f : v1, var2 = 0.0 > double(v2) ? 0.0f : v2;
    const float cov = in.both[x] - mu1 * mu2;
    const float sd = std::bit_cast<float>(float_ssim_soft_sd(bits_of_float(var1 * var2)));
    const float lum_den = mu1 * mu1 + mu2 * mu2 + k.c1, con_den = var1 + var2 + k.c2;
    const float cov_kept = (cov < 0.0f && sd <= 0.0f) ? 0.0f : cov;
    const float st = std::bit_cast<float>(
        softfp_f32_div(bits_of_float(cov_kept + k.c3), bits_of_float(sd + k.c3)));
    const float_ssim_soft_terms t = float_ssim_soft_terms_of(
        bits_of_float(mu1), bits_of_float(mu2), bits_of_float(k.c1), bits_of_float(lum_den),
        bits_of_float(sd), bits_of_float(k.c2), bits_of_float(con_den), bits_of_float(st));
    l[x] = std::bit_cast<double>(t.l);
    c[x] = std::bit_cast<double>(t.c);
    s[x] = double(st);
    lcs[x] = std::bit_cast<double>(t.lcs);
  }
}

Prepared softfp_terms_case(const Case& c) {
  const std::shared_ptr<const TermInputs> in = term_inputs(c);
  const size_t w = c.fill == kArbitrary ? 0 : size_t(c.width);
  auto run = [in, w](bool soft) {
    std::vector<double> l(w), cc(w), s(w), lcs(w);
    const fs::TermRow row{in->mu1.data(), in->mu2.data(), in->s11.data(), in->s22.data(),
                          in->s12.data()};
    if (soft) {
      softfp_terms(row, int(w), l.data(), cc.data(), s.data(), lcs.data());
    } else {
      fs::kReferenceStages.terms(row, int(w), l.data(), cc.data(), s.data());
      for (size_t x = 0; x < w; ++x) lcs[x] = l[x] * cc[x] * s[x];
    }
    Bytes b;
    for (const auto* v : {&l, &cc, &s, &lcs}) put(b, *v);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(true); };
  p.reference = [run] { return run(false); };
  return p;
}

// ---- float_ssim.decimate: every row of a plane's decimation, into a new
// buffer or in place (as float_ssim does, where no read meets an earlier
// output: spec, "Downscaling"). case.a: the factor with a box
// kernel, or 0 for MS-SSIM's halving with the 9 x 9 low-pass table; case.b:
// in place.
struct Decimation {
  int factor = 2;
  std::vector<float> taps;
  fs::DecimationKernel kernel() const {
    return {int(std::lround(std::sqrt(double(taps.size())))), taps};
  }
};

std::shared_ptr<const Decimation> decimation_of(int a) {
  auto d = std::make_shared<Decimation>();
  if (a == 0) {
    const fs::LowPassTable& t = fs::low_pass_table();
    d->taps.assign(&t[0][0], &t[0][0] + fs::kLowPass * fs::kLowPass);
  } else {
    d->factor = a;
    d->taps.assign(size_t(a) * size_t(a), 1.0f / float(a * a));
  }
  return d;
}

bool decimation_runs(int w, int h, int a) {
  const int factor = a == 0 ? 2 : a, taps = a == 0 ? fs::kLowPass : a;
  return fs::decimation_fits(w, factor, taps) && fs::decimation_fits(h, factor, taps);
}

Prepared decimate_case(const Case& c) {
  std::mt19937_64 rng(c.seed);
  auto plane = std::make_shared<fs::FloatPlane>(c.width, c.height);
  for (int y = 0; y < c.height; ++y) {
    const std::vector<float> row = make_row(c, c.width, y, rng);
    std::copy(row.begin(), row.end(), plane->row(y));
  }
  const auto dec = decimation_of(c.a);
  const bool in_place = c.b != 0;
  auto run = [plane, dec, in_place](auto stage) {
    const int sw = fs::decimated_size(plane->width, dec->factor),
              sh = fs::decimated_size(plane->height, dec->factor);
    const fs::DecimationKernel k = dec->kernel();
    std::vector<float> out;
    if (in_place) {
      out.assign(plane->samples.begin(), plane->samples.end());
      for (int y = 0; y < sh; ++y)
        stage(out.data(), plane->width, plane->height, y, dec->factor, k, sw,
              out.data() + size_t(y) * size_t(sw));
      out.resize(size_t(sw) * size_t(sh));
    } else {
      out.resize(size_t(sw) * size_t(sh));
      for (int y = 0; y < sh; ++y)
        stage(plane->samples.data(), plane->width, plane->height, y, dec->factor, k, sw,
              out.data() + size_t(y) * size_t(sw));
    }
    Bytes b;
    put(b, out);
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(fs::cpu::decimate_row); };
  p.reference = [run] { return run(fs::kReferenceStages.decimate_row); };
  return p;
}

std::string decimation_text(const Case& c) {
  return std::to_string(c.width) + "x" + std::to_string(c.height) + " " + std::to_string(c.bits) +
         "-bit " + kFillNames[c.fill] + ", " +
         (c.a == 0 ? std::string("low-pass halving") : "box " + std::to_string(c.a)) +
         (c.b ? ", in place" : "");
}

std::vector<Case> decimate_cases() {
  const uint64_t base = 0x5eed'f505;
  std::mt19937_64 rng(base);
  std::vector<Case> all;
  std::vector<int> widths;
  for (int w = 1; w <= 70; ++w) widths.push_back(w);
  for (int w : {127, 129, 353, 1920}) widths.push_back(w);
  for (int bits : {8, 10, 12, 16})
    for (int w : widths)
      for (int a = 0; a <= 10; ++a) {
        if (a == 1) continue;
        const int h = w == 1920 ? 24 : 1 + int(rng() % 40);
        if (!decimation_runs(w, h, a)) continue;
        // Every fill at a few widths; one drawn fill elsewhere.
        for (int fill = 0; fill < kFills; ++fill) {
          if (!(w <= 12 || w == 1920) && fill != int(rng() % kFills)) continue;
          Case c;
          c.seed = case_seed(base, all.size());
          c.bits = bits;
          c.width = w;
          c.height = h;
          c.fill = fill;
          c.a = a;
          // In place only with box kernels, as float_ssim decimates (with the
          // 9 x 9 table, rows 1 and 2 would read row 0's outputs).
          c.b = a > 0 ? int(rng() % 2) : 0;
          c.what = decimation_text(c);
          all.push_back(c);
        }
      }
  for (int a : {0, 4}) {
    Case c;
    c.seed = case_seed(base + 1, all.size());
    c.width = 1920;
    c.height = 1080;
    c.a = a;
    c.b = a == 4;
    c.timed = true;
    c.what = decimation_text(c) + ", timed";
    all.push_back(c);
  }
  return all;
}

// ---- float_ssim.frame and float_ssim.ms_ssim_frame: every score of a frame pair.
// case.fill: the pattern (ssim's plane fixture); case.a: float_ssim's scale
// option (0: automatic); case.b: enable_db with clip_db.
const char* const kPatternNames[] = {"random", "zero", "max", "alternating", "smooth"};

struct FramePair {
  test::OwnedPlane ref, dist;
};

std::shared_ptr<const FramePair> frame_pair(const Case& c) {
  std::mt19937_64 rng(c.seed);
  const auto pattern = test::Pattern(c.fill);
  test::OwnedPlane ref = test::make_plane(c.width, c.height, c.bits, pattern, rng);
  test::OwnedPlane dist =
      pattern == test::Pattern::kRandom || pattern == test::Pattern::kSmooth
          ? test::add_noise(ref, (1u << c.bits) / 16, rng)
          : test::make_plane(c.width, c.height, c.bits, pattern, rng, /*invert=*/true);
  return std::make_shared<const FramePair>(FramePair{std::move(ref), std::move(dist)});
}

Prepared ssim_frame_case(const Case& c) {
  const auto in = frame_pair(c);
  fs::SsimOptions o;
  o.scale = c.a;
  o.enable_db = o.clip_db = c.b != 0;
  const int bits = c.bits;
  auto bytes = [](const fs::SsimScores& s) {
    Bytes b;
    put(b, &s, 1);
    return b;
  };
  Prepared p;
  p.twin = [in, bits, o, bytes] {
    return bytes(fs::cpu::float_ssim_simd(in->ref.view(), in->dist.view(), bits, o));
  };
  p.reference = [in, bits, o, bytes] {
    return bytes(fs::float_ssim_reference(in->ref.view(), in->dist.view(), bits, o));
  };
  return p;
}

Prepared ms_ssim_frame_case(const Case& c) {
  const auto in = frame_pair(c);
  fs::MsSsimOptions o;
  o.enable_db = o.clip_db = c.b != 0;
  const int bits = c.bits;
  // A product of +inf throws in both: the message is the result.
  auto run = [in, bits, o](auto score) {
    Bytes b;
    try {
      const fs::MsSsimScores s = score(in->ref.view(), in->dist.view(), bits, o);
      put(b, &s, 1);
    } catch (const std::exception& e) {
      const std::string what = e.what();
      put(b, what.data(), what.size());
    }
    return b;
  };
  Prepared p;
  p.twin = [run] { return run(fs::cpu::float_ms_ssim_simd); };
  p.reference = [run] { return run(fs::float_ms_ssim_reference); };
  return p;
}

std::vector<Case> frame_cases(bool ms) {
  const uint64_t base = ms ? 0x5eed'f5f2 : 0x5eed'f5f1;
  std::mt19937_64 rng(base);
  std::vector<std::pair<int, int>> sizes;
  if (ms) {
    sizes = {{176, 176}, {177, 181}, {190, 240}, {241, 176}};
  } else {
    sizes = {{1, 1},  {8, 8},   {10, 18}, {11, 11}, {12, 13},
             {17, 9}, {21, 30}, {64, 17}, {70, 70}, {384, 100}};
    for (int w = 11; w <= 70; w += 7) sizes.push_back({w, 11 + int(rng() % 30)});
  }
  std::vector<Case> all;
  for (int bits : {8, 10, 12, 16})
    for (auto [w, h] : sizes)
      for (int pattern = 0; pattern < 5; ++pattern) {
        Case c;
        c.seed = case_seed(base, all.size());
        c.bits = bits;
        c.width = w;
        c.height = h;
        c.fill = pattern;
        c.a = ms ? 0 : int(rng() % 4);
        if (!ms && c.a > 1 &&
            !(fs::decimation_fits(w, c.a, c.a) && fs::decimation_fits(h, c.a, c.a)))
          c.a = 1;
        c.b = int(rng() % 2);
        c.what = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bits) +
                 "-bit " + kPatternNames[pattern] + (ms ? "" : ", scale " + std::to_string(c.a)) +
                 (c.b ? ", clip_db" : "");
        all.push_back(c);
      }
  for (int bits : {8, 10}) {
    Case c;
    c.seed = case_seed(base + 1, all.size());
    c.bits = bits;
    c.width = 1920;
    c.height = 1080;
    c.timed = true;
    c.what = "1920x1080 " + std::to_string(bits) + "-bit random, timed";
    all.push_back(c);
  }
  return all;
}

EXACTVQ_TWIN_ROWS(float_ssim_rows) {
  register_per_target(
      "float_ssim.window_horizontal", [] { return stage_cases(0x5eed'f501); },
      window_horizontal_case);
  register_per_target(
      "float_ssim.window_vertical", [] { return stage_cases(0x5eed'f502); }, window_vertical_case);
  register_per_target(
      "float_ssim.products", [] { return stage_cases(0x5eed'f503); }, products_case);
  register_per_target(
      "float_ssim.terms", [] { return stage_cases(0x5eed'f504); }, terms_case);
  register_per_target("float_ssim.decimate", decimate_cases, decimate_case);
  register_per_target(
      "float_ssim.frame", [] { return frame_cases(false); }, ssim_frame_case);
  register_per_target(
      "float_ssim.ms_ssim_frame", [] { return frame_cases(true); }, ms_ssim_frame_case);
  Row soft_window;
  soft_window.name = "float_ssim.window_horizontal/softfp";
  soft_window.cases = [] { return stage_cases(0x5eed'f501); };
  soft_window.prepare = softfp_window_horizontal_case;
  soft_window.reference_key = "float_ssim.window_horizontal";
  register_row(soft_window);
  Row soft;
  soft.name = "float_ssim.terms_lcs/softfp";
  soft.cases = [] { return stage_cases(0x5eed'f505); };
  soft.prepare = softfp_terms_case;
  soft.reference_key = "float_ssim.terms_lcs";
  register_row(soft);
}

}  // namespace
}  // namespace exactvq::twins
