#include "libm/libm.h"
#include "metrics/float_ssim/scores.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/ssim/decibels.h"

namespace exactvq::float_ssim {

namespace {

// The quiet NaN x86-64 gives for 0.0 / 0.0 (sign bit set), rounded to binary32
// as libvmaf rounds its means: the same bits on every machine.
const float kNoPixelsNaN = std::bit_cast<float>(uint32_t{0xffc00000});

}  // namespace

const std::array<float, kScales> kAlphas = {0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.1333f};
const std::array<float, kScales> kBetas = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};
const std::array<float, kScales> kGammas = kBetas;

SsimMeans means_of_sums(double ssim, double l, double c, double s, int ow, int oh) {
  const int count = ow * oh;
  if (count == 0) return {kNoPixelsNaN, kNoPixelsNaN, kNoPixelsNaN, kNoPixelsNaN};
  const double n = double(count);
  return {float(ssim / n), float(l / n), float(c / n), float(s / n)};
}

double max_db(int width, int height, int bitdepth, bool clip_db) {
  // libvmaf's float_ssim and integer ssim share the formulas (spec/ssim.md "Decibels").
  if (!clip_db) return std::numeric_limits<double>::infinity();
  return ssim::clip_db_limit((uint32_t{1} << bitdepth) - 1, width, height);
}

double to_db(double score, double max) { return ssim::to_db(score, max); }

SsimScores ssim_scores(const SsimMeans& m, int width, int height, int bitdepth,
                       const SsimOptions& o) {
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
    product *= libm::pow(double(m.l), double(kAlphas[i])) *
               libm::pow(double(m.c), double(kBetas[i])) *
               libm::pow(double(m.s), double(kGammas[i]));
    out.l[i] = double(m.l);
    out.c[i] = double(m.c);
    out.s[i] = double(m.s);
    if (product == std::numeric_limits<double>::infinity())
      // libvmaf's extractor fails the frame with 1, as for pictures too small.
      throw PictureError(
          fmt::format("float_ms_ssim: the product of the scales is infinite at scale {} (libvmaf "
                      "fails the frame)",
                      i),
          1);
  }
  out.ms_ssim = o.enable_db ? to_db(product, max_db(width, height, bitdepth, o.clip_db)) : product;
  return out;
}

}  // namespace exactvq::float_ssim
