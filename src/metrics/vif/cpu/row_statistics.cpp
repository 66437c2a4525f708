// One row of a level's statistic with the SIMD stages (the twin of
// vif::row_statistics): where the target has it, the vertical pass straight
// into the paired horizontal pass's biased 16-bit halves, their edge columns
// mirrored there, then the horizontal pass on them; else the three stages one
// at a time.
#include "metrics/vif/cpu/paired_lines.h"
#include "metrics/vif/cpu/vif_simd.h"

#include <algorithm>

namespace exactvq::vif::cpu {

namespace {

// The halves (biased by -2^15) of the lines' values at column x.
void split_column(const MomentLines& lines, int x, size_t at, PairedLines& out) {
  const auto biased = [](uint32_t v) { return int16_t(uint16_t(v ^ 0x8000u)); };
  out.mu1[at] = biased(lines.mu1[x]);
  out.mu2[at] = biased(lines.mu2[x]);
  const EdgeLine* const moments[3] = {&lines.xx, &lines.yy, &lines.xy};
  for (int m = 0; m < 3; ++m) {
    out.lo[m][at] = biased((*moments[m])[x] & 0xFFFFu);
    out.hi[m][at] = biased((*moments[m])[x] >> 16);
  }
}

// mirror_edge_columns on each array of `lines` (column c at c + half).
void mirror_halves(PairedLines& lines, int width, int half) {
  for (std::vector<int16_t>* v : {&lines.mu1, &lines.mu2, &lines.lo[0], &lines.hi[0], &lines.lo[1],
                                  &lines.hi[1], &lines.lo[2], &lines.hi[2]}) {
    int16_t* at = v->data() + half;
    for (int f = 1; f <= half; ++f) {
      at[-f] = at[f];
      at[width - 1 + f] = at[width - 1 - f];
    }
  }
}

// Each thread's halves: one row's, or two rows' for the two-row pass.
thread_local PairedLines row_halves[2];

}  // namespace

void size_halves(PairedLines& halves, int width, int half) {
  const size_t count = size_t(width + 2 * half);
  for (std::vector<int16_t>* v : {&halves.mu1, &halves.mu2, &halves.lo[0], &halves.hi[0],
                                  &halves.lo[1], &halves.hi[1], &halves.lo[2], &halves.hi[2]}) {
    v->resize(count + PairedLines::kPaddingColumns);
    std::fill(v->begin() + ptrdiff_t(count), v->end(), int16_t{0});
  }
}

LevelSums finish_row(std::span<const uint8_t* const> ref_rows,
                     std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                     std::span<const uint16_t> taps, Rounding mean, Rounding square,
                     double gain_limit, int done, PairedLines& halves, MomentLines& lines) {
  const int half = int(taps.size() / 2);
  for (int x = done; x < width; ++x) {
    vif::vertical_moments_at(ref_rows, dist_rows, sample, x, taps, mean, square, lines);
    split_column(lines, x, size_t(x + half), halves);
  }
  mirror_halves(halves, width, half);
  return paired_horizontal_statistics(halves, width, taps, gain_limit, lines);
}

LevelSums row_statistics(std::span<const uint8_t* const> ref_rows,
                         std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                         std::span<const uint16_t> taps, Rounding mean, Rounding square,
                         double gain_limit, MomentLines& lines) {
  const int half = int(taps.size() / 2);
  // From 2 * half + 1 columns on the mirror reads only the row's own columns
  // (narrower levels read edge columns earlier rows left in `lines`).
  if (width > 2 * half) {
    PairedLines& halves = row_halves[0];
    size_halves(halves, width, half);
    const int done =
        vertical_moment_halves(ref_rows, dist_rows, sample, width, taps, mean, square, halves);
    if (done > 0)
      return finish_row(ref_rows, dist_rows, sample, width, taps, mean, square, gain_limit, done,
                        halves, lines);
  }
  cpu::vertical_moments(ref_rows, dist_rows, sample, width, taps, mean, square, lines);
  for (EdgeLine* line : {&lines.mu1, &lines.mu2, &lines.xx, &lines.yy, &lines.xy})
    mirror_edge_columns(*line, width, half);
  return cpu::horizontal_statistics(lines, width, taps, gain_limit);
}

}  // namespace exactvq::vif::cpu

namespace exactvq::vif::cpu {

LevelSums row_statistics_pair(std::span<const uint8_t* const> ref_rows,
                              std::span<const uint8_t* const> dist_rows, SampleWidth sample,
                              int width, std::span<const uint16_t> taps, Rounding mean,
                              Rounding square, double gain_limit, MomentLines& lines) {
  const size_t n = taps.size();
  const int half = int(n / 2);
  const auto ref_a = ref_rows.first(n), dist_a = dist_rows.first(n);
  const auto ref_b = ref_rows.subspan(1, n), dist_b = dist_rows.subspan(1, n);
  if (width > 2 * half) {
    size_halves(row_halves[0], width, half);
    size_halves(row_halves[1], width, half);
    const int done = vertical_moment_halves_pair(ref_rows, dist_rows, sample, width, taps, mean,
                                                 square, row_halves[0], row_halves[1]);
    if (done > 0) {
      LevelSums sums = finish_row(ref_a, dist_a, sample, width, taps, mean, square, gain_limit,
                                  done, row_halves[0], lines);
      sums += finish_row(ref_b, dist_b, sample, width, taps, mean, square, gain_limit, done,
                         row_halves[1], lines);
      return sums;
    }
  }
  LevelSums sums =
      cpu::row_statistics(ref_a, dist_a, sample, width, taps, mean, square, gain_limit, lines);
  sums += cpu::row_statistics(ref_b, dist_b, sample, width, taps, mean, square, gain_limit, lines);
  return sums;
}

}  // namespace exactvq::vif::cpu
