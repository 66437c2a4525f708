// The x86 paired horizontal pass's input: a row's five vertically filtered
// lines as int16 values biased by -2^15 (v - 32768 of each 16-bit value), the
// means whole and the second moments as their low and high 16-bit halves.
// The vertical pass may write these directly (vertical_moment_halves), which
// saves writing the uint32 lines and splitting them again; row_statistics
// joins the two. Internal to metrics/vif/cpu.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "metrics/vif/statistic.h"

namespace exactvq::vif::cpu {

// Column c of a line of the row's taps' half-width h lies at index c + h:
// columns [-h, width + h), then kPaddingColumns zeros, which the vector loads
// of the last pixels read past the edge columns (times a zero tap).
struct PairedLines {
  static constexpr int kPaddingColumns = 64;
  std::vector<int16_t> mu1, mu2, lo[3], hi[3];  // moments: xx, yy, xy
};

// The vertical pass (vertical_moments' arithmetic) into `out`'s columns [0,
// x) for the largest x a whole number of the target's vectors: returns x, or
// 0 where this target or these taps and roundings have no such kernel (then
// nothing is written). `out`'s arrays must hold width + 2 * half +
// kPaddingColumns entries.
int vertical_moment_halves(std::span<const uint8_t* const> ref_rows,
                           std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                           std::span<const uint16_t> taps, Rounding mean, Rounding square,
                           PairedLines& out);

// vertical_moment_halves of output rows i (out_a) and i + 1 (out_b) from the
// taps.size() + 1 rows i - half .. i + half + 1, in one pass over them: the
// same x (0 where vertical_moment_halves gives 0) and the same values.
int vertical_moment_halves_pair(std::span<const uint8_t* const> ref_rows,
                                std::span<const uint8_t* const> dist_rows, SampleWidth sample,
                                int width, std::span<const uint16_t> taps, Rounding mean,
                                Rounding square, PairedLines& out_a, PairedLines& out_b);

// Sizes `halves` for a row of `width` columns under taps of half-width `half`:
// width + 2 * half entries and the zero padding after them.
void size_halves(PairedLines& halves, int width, int half);

// The rest of a row whose halves the vertical pass wrote up to column `done`:
// the tail's columns by the reference's steps, the mirrored edges, then the
// horizontal pass; `lines` is working memory.
LevelSums finish_row(std::span<const uint8_t* const> ref_rows,
                     std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                     std::span<const uint16_t> taps, Rounding mean, Rounding square,
                     double gain_limit, int done, PairedLines& halves, MomentLines& lines);

// horizontal_statistics of the row whose lines `lines` holds, edge columns
// included; `scratch` is overwritten (the reference's steps read its columns).
LevelSums paired_horizontal_statistics(const PairedLines& lines, int width,
                                       std::span<const uint16_t> taps, double gain_limit,
                                       MomentLines& scratch);

}  // namespace exactvq::vif::cpu
