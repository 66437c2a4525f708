// One level of ADM's 2-D Daubechies-2 DWT, in integers: a vertical pass per
// output row (4 source rows -> low and high rows), then a horizontal pass
// (4 columns -> 2 outputs per filter). Every sum here is an integer sum: any
// order gives the same bits.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace exactvq::adm {

// The db2 analysis filters in Q15 (sum of low-pass taps: 46342 = sqrt(2) * 2^15).
inline constexpr int32_t kDwtLow[4] = {15826, 27411, 7345, -4240};
inline constexpr int32_t kDwtHigh[4] = {-4240, -7345, 27411, -15826};
inline constexpr int32_t kDwtLowSum = 46342;

// The 4 input indices output index i reads, for each of the (length + 1) / 2
// outputs: 2i - 1, 2i, 2i + 1, 2i + 2, mirrored at the ends without repeating
// the edge sample (-1 -> 1; length -> length - 1, length + 1 -> length - 2).
// Needs length >= 5 (libvmaf's own index table breaks below that).
std::vector<std::array<int, 4>> dwt_taps(int length);

// Scale 0, vertical pass of one output row over `width` columns of 8-bit
// (uint8_t) or 9..16-bit (uint16_t) samples: rows[k] is source row taps[k].
// Centres the samples (subtracts the low-pass gain times 2^(bitdepth-1)) and
// shifts by bitdepth with rounding. hi may be null (low-pass only).
void dwt0_vertical(const uint8_t* const rows[4], int width, int16_t* lo, int16_t* hi);
void dwt0_vertical(const uint16_t* const rows[4], int width, int bitdepth, int16_t* lo,
                   int16_t* hi);

// Scale 0, horizontal pass: out_width outputs per band from the vertical
// pass's lo and hi rows, shifted by 16 with rounding. With hi == null only a
// is written (v, h, d may be null).
void dwt0_horizontal(const int16_t* lo, const int16_t* hi, const std::array<int, 4>* taps,
                     int out_width, int16_t* a, int16_t* v, int16_t* h, int16_t* d);

// Scales 1..3 on 32-bit bands (64-bit sums); the rounding shifts depend on the
// scale. As at scale 0, hi may be null (low-pass only; then only a is written).
void dwt_vertical_s123(const int32_t* const rows[4], int width, int scale, int32_t* lo,
                       int32_t* hi);
void dwt_horizontal_s123(const int32_t* lo, const int32_t* hi, const std::array<int, 4>* taps,
                         int out_width, int scale, int32_t* a, int32_t* v, int32_t* h, int32_t* d);
// Scale 1's vertical pass read from scale 0's 16-bit a band: dwt_vertical_s123
// at scale 1 of its values (the sums, below 2^31 in magnitude, need no rounding or shift).
void dwt_vertical_s1(const int16_t* const rows[4], int width, int32_t* lo, int32_t* hi);

}  // namespace exactvq::adm
