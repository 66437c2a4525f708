// The scores of docs/spec/float_ssim.md from the means of each scale: the means
// from the raster-order sums, float_ssim's and float_ms_ssim's values, decibels.
#pragma once

#include <array>

#include "metrics/float_ssim/options.h"

namespace exactvq::float_ssim {

// MS-SSIM's scales and each one's exponents (binary32, as libvmaf stores them).
inline constexpr int kScales = 5;
extern const std::array<float, kScales> kAlphas, kBetas, kGammas;

// What iqa's SSIM gives for one scale: the mean SSIM and the means of its
// luminance, contrast and structure terms, each rounded to binary32.
struct SsimMeans {
  float ssim = 0, l = 0, c = 0, s = 0;
};

// Step 6 of the spec's SSIM of one scale: the means of ow x oh positions from
// the four raster-order sums (sum of l*c*s, of l, of c, of s), each sum over
// f64(ow * oh) rounded to binary32; where no window fits (ow * oh <= 0 as C
// ints) the sums are 0 and the product 0 gives the definition's NaN.
SsimMeans means_of_sums(double ssim, double l, double c, double s, int ow, int oh);

// float_ssim's values for a frame: float_ssim (decibels under enable_db), and
// the l, c, s means (never in decibels).
struct SsimScores {
  double ssim = 0, l = 0, c = 0, s = 0;
};
// float_ms_ssim's values: the product over the scales, and each scale's means.
struct MsSsimScores {
  double ms_ssim = 0;
  std::array<double, kScales> l{}, c{}, s{};
};

// The decibel ceiling under clip_db (+inf without): ceil(10 log10(peak^2 / (0.5 / (w h)))).
double max_db(int width, int height, int bitdepth, bool clip_db);
// min(-10 log10(1 - score), max_db), libvmaf's comparison: a NaN score gives max_db.
double to_db(double score, double max_db);

// The means of float_ms_ssim's five scales.
using ScaleMeans = std::array<SsimMeans, kScales>;

// The steps after the means (reference.h's float_ssim_means and
// float_ms_ssim_means), on the host with the C library (log10, pow), for a
// picture of width x height samples of `bitdepth` bits. ms_ssim_scores throws
// InputError where the product of the scales is +inf (libvmaf fails the frame).
SsimScores ssim_scores(const SsimMeans& m, int width, int height, int bitdepth,
                       const SsimOptions& o);
MsSsimScores ms_ssim_scores(const ScaleMeans& m, int width, int height, int bitdepth,
                            const MsSsimOptions& o);

}  // namespace exactvq::float_ssim
