#include "metrics/vif/statistic.h"

#include <bit>

#include "metrics/vif/log2_table.h"
#include "metrics/vif/native_statistic.h"

namespace exactvq::vif {

namespace {

const double kEps = std::bit_cast<double>(uint64_t{EXACTVQ_VIF_EPS_BITS});
static_assert(std::bit_cast<uint64_t>(65536 * 1.0e-10) == EXACTVQ_VIF_EPS_BITS);

}  // namespace

void vertical_moments(std::span<const uint8_t* const> ref_rows,
                      std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                      std::span<const uint16_t> taps, Rounding mean, Rounding square,
                      MomentLines& out) {
  for (int x = 0; x < width; ++x)
    vertical_moments_at(ref_rows, dist_rows, sample, x, taps, mean, square, out);
}

void vertical_moments_at(std::span<const uint8_t* const> ref_rows,
                         std::span<const uint8_t* const> dist_rows, SampleWidth sample, int x,
                         std::span<const uint16_t> taps, Rounding mean, Rounding square,
                         MomentLines& out) {
  uint32_t mu1 = 0, mu2 = 0;
  uint64_t xx = 0, yy = 0, xy = 0;
  for (size_t k = 0; k < taps.size(); ++k) {
    const uint32_t r = sample_at(ref_rows[k], sample, x);
    const uint32_t d = sample_at(dist_rows[k], sample, x);
    const uint32_t tr = taps[k] * r, td = taps[k] * d;
    mu1 += tr;
    mu2 += td;
    xx += uint64_t(tr) * r;
    yy += uint64_t(td) * d;
    xy += uint64_t(tr) * d;
  }
  out.mu1[x] = uint16_t((mu1 + mean.add) >> mean.shift);
  out.mu2[x] = uint16_t((mu2 + mean.add) >> mean.shift);
  out.xx[x] = uint32_t((xx + square.add) >> square.shift);
  out.yy[x] = uint32_t((yy + square.add) >> square.shift);
  out.xy[x] = uint32_t((xy + square.add) >> square.shift);
}

void add_pixel_statistic(const PixelMoments& m, double gain_limit, LevelSums& sums) {
  add_pixel_terms(vif_sigmas(m.mu1, m.mu2, m.xx, m.yy, m.xy), kEps, gain_limit, kLog2Table.data(),
                  &sums);
}

LevelSums horizontal_statistics(const MomentLines& lines, int width, std::span<const uint16_t> taps,
                                double gain_limit) {
  LevelSums sums;
  for (int x = 0; x < width; ++x) add_horizontal_statistic_at(lines, x, taps, gain_limit, sums);
  return sums;
}

void add_horizontal_statistic_at(const MomentLines& lines, int x, std::span<const uint16_t> taps,
                                 double gain_limit, LevelSums& sums) {
  const int half = int(taps.size() / 2);
  PixelMoments m;
  for (size_t k = 0; k < taps.size(); ++k) {
    const int c = x - half + int(k);
    const uint32_t t = taps[k];
    m.mu1 += t * lines.mu1[c];
    m.mu2 += t * lines.mu2[c];
    m.xx += t * uint64_t(lines.xx[c]);
    m.yy += t * uint64_t(lines.yy[c]);
    m.xy += t * uint64_t(lines.xy[c]);
  }
  add_pixel_statistic(m, gain_limit, sums);
}

LevelSums row_statistics(std::span<const uint8_t* const> ref_rows,
                         std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                         std::span<const uint16_t> taps, Rounding mean, Rounding square,
                         double gain_limit, MomentLines& lines) {
  vertical_moments(ref_rows, dist_rows, sample, width, taps, mean, square, lines);
  for (EdgeLine* line : {&lines.mu1, &lines.mu2, &lines.xx, &lines.yy, &lines.xy})
    mirror_edge_columns(*line, width, int(taps.size() / 2));
  return horizontal_statistics(lines, width, taps, gain_limit);
}

LevelRatio level_ratio(const LevelSums& s) {
  const double num = double(s.num_log) / 2048.0 +
                     (double(s.den_non_log) - (double(s.num_non_log) / 16384.0) / 65025.0);
  const double den = double(s.den_log) / 2048.0 + double(s.den_non_log);
  return {float(num), float(den)};
}

}  // namespace exactvq::vif
