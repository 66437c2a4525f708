// The blur before each halving of vif's pyramid: the next level's Gaussian,
// vertical then horizontal, in integers, kept at even rows and columns.
#pragma once

#include <cstdint>
#include <span>

#include "metrics/vif/edges.h"
#include "metrics/vif/taps.h"

namespace exactvq::vif {

// The vertically blurred lines of ref and dist (16 bits).
struct BlurLines {
  explicit BlurLines(int width) : ref(width), dist(width) {}
  EdgeLine ref, dist;
};

// The vertical pass at one row, columns [0, width): rows[k] are the level rows
// y - half + k; (sum of tap * sample, 32 bits) rounded by `round`, cut to 16 bits.
void vertical_blur(std::span<const uint8_t* const> ref_rows,
                   std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                   std::span<const uint16_t> taps, Rounding round, BlurLines& out);

// The horizontal pass at the even columns 2j < width of lines carrying their
// mirrored edge columns: ref_out[j], dist_out[j] = (sum of tap * value, 32
// bits) rounded by 16 bits, cut to 16 bits; width / 2 values each.
void horizontal_blur_even(const BlurLines& lines, int width, std::span<const uint16_t> taps,
                          std::span<uint16_t> ref_out, std::span<uint16_t> dist_out);

// One row of a halving: vertical_blur into `lines`, their edge columns
// mirrored (mirror_edge_columns, the taps' half-width), then
// horizontal_blur_even into ref_out and dist_out. `lines` is kept from row to
// row (a one-column level, which has no outputs, reads edge columns earlier
// rows left).
void blur_row(std::span<const uint8_t* const> ref_rows, std::span<const uint8_t* const> dist_rows,
              SampleWidth sample, int width, std::span<const uint16_t> taps, Rounding round,
              BlurLines& lines, std::span<uint16_t> ref_out, std::span<uint16_t> dist_out);

}  // namespace exactvq::vif
