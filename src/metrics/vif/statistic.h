// vif's statistic of one pyramid level: local means and second moments under
// the level's Gaussian (a vertical then a horizontal pass, both in integers),
// then per pixel libvmaf's fixed-point log2 of the information terms, whose
// gain steps are binary64. Every pixel adds integers to LevelSums, so rows and
// pixels may be summed in any order or split; only level_ratio's binary64
// steps have an order.
#pragma once

#include <cstdint>
#include <span>

#include "metrics/vif/definition.h"
#include "metrics/vif/edges.h"
#include "metrics/vif/taps.h"

namespace exactvq::vif {

// The five vertically filtered lines of a row: means of ref and dist (16
// bits) and the second moments ref*ref, dist*dist, ref*dist (32 bits).
struct MomentLines {
  explicit MomentLines(int width) : mu1(width), mu2(width), xx(width), yy(width), xy(width) {}
  EdgeLine mu1, mu2, xx, yy, xy;
};

// The vertical pass at one output row, columns [0, width): ref_rows[k] and
// dist_rows[k] are the level rows y - half + k for each of taps.size() taps.
// Means: (sum of tap * sample, 32 bits) rounded by `mean`, cut to 16 bits;
// moments: (sum of tap * sample * sample, 64 bits) rounded by `square`, cut to
// 32 bits.
void vertical_moments(std::span<const uint8_t* const> ref_rows,
                      std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                      std::span<const uint16_t> taps, Rounding mean, Rounding square,
                      MomentLines& out);
// vertical_moments at column x alone (also the SIMD pass's row tail).
void vertical_moments_at(std::span<const uint8_t* const> ref_rows,
                         std::span<const uint8_t* const> dist_rows, SampleWidth sample, int x,
                         std::span<const uint16_t> taps, Rounding mean, Rounding square,
                         MomentLines& out);

// The horizontal sums at one pixel, before rounding: the means (32 bits, with
// libvmaf's wrap) and the moments (64 bits).
struct PixelMoments {
  uint32_t mu1 = 0, mu2 = 0;
  uint64_t xx = 0, yy = 0, xy = 0;
};

// A level's integer sums (libvmaf's accum_num_log, accum_den_log,
// accum_num_non_log, accum_den_non_log): the definition's VifSums, zeroed,
// with the host's operators.
struct LevelSums : VifSums {
  LevelSums() : VifSums{0, 0, 0, 0} {}
  LevelSums& operator+=(const LevelSums& o) {
    num_log += o.num_log;
    den_log += o.den_log;
    num_non_log += o.num_non_log;
    den_non_log += o.den_non_log;
    return *this;
  }
  bool operator==(const LevelSums& o) const {
    return num_log == o.num_log && den_log == o.den_log && num_non_log == o.num_non_log &&
           den_non_log == o.den_non_log;
  }
};

// One pixel's terms added to `sums`, from its horizontal sums.
void add_pixel_statistic(const PixelMoments& m, double gain_limit, LevelSums& sums);

// The horizontal pass and the pixel statistic over columns [0, width) of one
// row whose lines carry their mirrored edge columns.
LevelSums horizontal_statistics(const MomentLines& lines, int width, std::span<const uint16_t> taps,
                                double gain_limit);
// horizontal_statistics at column x alone, added to `sums` (also the SIMD pass's row tail).
void add_horizontal_statistic_at(const MomentLines& lines, int x, std::span<const uint16_t> taps,
                                 double gain_limit, LevelSums& sums);

// One row of a level's statistic: vertical_moments into `lines`, their edge
// columns mirrored (mirror_edge_columns, the taps' half-width), then
// horizontal_statistics. `lines` is the row's working memory, kept from row to
// row and level to level (a level of fewer columns than half its taps reads
// edge columns earlier rows left).
LevelSums row_statistics(std::span<const uint8_t* const> ref_rows,
                         std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                         std::span<const uint16_t> taps, Rounding mean, Rounding square,
                         double gain_limit, MomentLines& lines);

// A level's numerator and denominator, as the floats libvmaf keeps.
struct LevelRatio {
  float num = 0.0f, den = 0.0f;
};

// num = num_log / 2048 + (den_non_log - (num_non_log / 16384) / 65025) and
// den = den_log / 2048 + den_non_log, binary64 in this order, then each
// rounded to float.
LevelRatio level_ratio(const LevelSums& sums);

}  // namespace exactvq::vif
