// vif's SIMD stages (Highway kernels), each the twin of a scalar reference
// stage of the same name in metrics/vif/ (statistic.h, blur.h): same arguments,
// same bits, tested against it in tests/twins/vif_rows.cpp. vif_simd runs the
// reference's pyramid with these stages.
//
// Lane widths follow the reference's: means and blurs in uint32 lanes with the
// reference's wrap; second moments in uint32 lanes where they provably fit
// (8-bit samples; on x86 also 16-bit samples, by 16-bit halves of each
// product: vertical_moments.cpp), else in uint64 lanes, the even and odd
// columns apart; the per-pixel statistic in 64-bit lanes, its binary64 steps
// in the reference's order, one pixel a lane. On x86 the horizontal sums go by pairs of taps over
// 16-bit halves and the statistic in 32-bit lanes (horizontal_statistics.cpp;
// docs/spec/vif.md, "The statistic in 32-bit lanes", proves the bounds).
#pragma once

#include <cstdint>
#include <span>

#include "core/picture.h"
#include "metrics/vif/blur.h"
#include "metrics/vif/options.h"
#include "metrics/vif/reference.h"
#include "metrics/vif/statistic.h"

namespace exactvq::vif::cpu {

// Twin of vif::vertical_moments.
void vertical_moments(std::span<const uint8_t* const> ref_rows,
                      std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                      std::span<const uint16_t> taps, Rounding mean, Rounding square,
                      MomentLines& out);

// Twin of two calls of vif::vertical_moments: output rows i (out_a) and i + 1
// (out_b) from the taps.size() + 1 rows i - half .. i + half + 1. On x86, for
// odd tap counts, one pass over the rows makes both (vertical_moments.cpp).
void vertical_moments_pair(std::span<const uint8_t* const> ref_rows,
                           std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                           std::span<const uint16_t> taps, Rounding mean, Rounding square,
                           MomentLines& out_a, MomentLines& out_b);

// Twin of vif::horizontal_statistics (which adds add_pixel_statistic of every
// pixel), for gain limits >= 0 (the options keep them in [1, 100]).
LevelSums horizontal_statistics(const MomentLines& lines, int width, std::span<const uint16_t> taps,
                                double gain_limit);

// Twin of vif::row_statistics (its sums; `lines` is working memory). On x86,
// for the taps of levels 0 to 2, the vertical pass writes the horizontal
// pass's biased 16-bit halves directly (cpu/paired_lines.h).
LevelSums row_statistics(std::span<const uint8_t* const> ref_rows,
                         std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                         std::span<const uint16_t> taps, Rounding mean, Rounding square,
                         double gain_limit, MomentLines& lines);

// Twin of vif::row_statistics of rows i and then i + 1 (their sums added),
// from the taps.size() + 1 rows i - half .. i + half + 1 (vif_with_stages'
// statistics_pair).
LevelSums row_statistics_pair(std::span<const uint8_t* const> ref_rows,
                              std::span<const uint8_t* const> dist_rows, SampleWidth sample,
                              int width, std::span<const uint16_t> taps, Rounding mean,
                              Rounding square, double gain_limit, MomentLines& lines);

// Twins of vif::vertical_blur and vif::horizontal_blur_even.
void vertical_blur(std::span<const uint8_t* const> ref_rows,
                   std::span<const uint8_t* const> dist_rows, SampleWidth sample, int width,
                   std::span<const uint16_t> taps, Rounding round, BlurLines& out);
void horizontal_blur_even(const BlurLines& lines, int width, std::span<const uint16_t> taps,
                          std::span<uint16_t> ref_out, std::span<uint16_t> dist_out);

// Twin of vif::blur_row. On x86, for taps each below 2^15, the vertical pass
// writes the horizontal pass's packed 16-bit lines directly.
void blur_row(std::span<const uint8_t* const> ref_rows, std::span<const uint8_t* const> dist_rows,
              SampleWidth sample, int width, std::span<const uint16_t> taps, Rounding round,
              BlurLines& lines, std::span<uint16_t> ref_out, std::span<uint16_t> dist_out);

// vif_reference's scores with these stages: the same bits.
VifScores vif_simd(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                   const VifOptions& options);
VifLevelSums vif_simd_level_sums(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                                 const VifOptions& options);

}  // namespace exactvq::vif::cpu
