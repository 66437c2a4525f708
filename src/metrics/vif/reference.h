// The scalar reference of spec/vif.md (libvmaf's integer vif): the
// readable definition every other vif engine is tested against.
#pragma once

#include <array>

#include "core/picture.h"
#include "metrics/vif/blur.h"
#include "metrics/vif/options.h"
#include "metrics/vif/statistic.h"
#include "metrics/vif/taps.h"

namespace exactvq::vif {

// Every value libvmaf's vif appends for a frame, as the doubles it appends.
struct VifScores {
  std::array<LevelRatio, kLevels> levels;  // each level's float num and den
  std::array<double, kLevels> scale{};     // integer_vif_scale0..3: num / den in float
  // debug=true only: integer_vif, integer_vif_num, integer_vif_den and
  // integer_vif_num_scaleN, integer_vif_den_scaleN.
  double vif = 0, num = 0, den = 0;
  std::array<double, kLevels> num_scale{}, den_scale{};
};

// The smallest luma picture vif scores: 8 rows (libvmaf crashes on fewer,
// halving to none) and 2 columns, 4 with vif_skip_scale0 (libvmaf reads edge
// columns left from earlier frames on fewer). Throws InputError naming
// `where` and the size.
inline constexpr int kMinHeight = 8;
void check_vif_size(int width, int height, const VifOptions& options, const char* where);

// The luma planes of a frame pair (same size, 8..16 bits). Levels the
// pyramid halves to no columns (width under 2^level) score the NaN that
// libvmaf's 0.0f / 0.0f gives on x86-64. Throws InputError on a size
// check_vif_size refuses or planes that do not match.
VifScores vif_reference(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                        const VifOptions& options);

// The row stages vif's pyramid runs: the scalar reference's (kReferenceStages)
// or twins of them that give the same bits (cpu/vif_simd.h). statistics_pair,
// where set, gives the sums of two rows y and y + 1 together (statistics of
// each, in that order, on the same lines) from the taps.size() + 1 rows
// y - half .. y + half + 1; the pyramid then takes the rows two at a time.
using RowPairStatistics = LevelSums (*)(std::span<const uint8_t* const> ref_rows,
                                        std::span<const uint8_t* const> dist_rows,
                                        SampleWidth sample, int width,
                                        std::span<const uint16_t> taps, Rounding mean,
                                        Rounding square, double gain_limit, MomentLines& lines);
struct VifStages {
  decltype(&row_statistics) statistics;
  decltype(&blur_row) blur;
  RowPairStatistics statistics_pair = nullptr;
};
inline constexpr VifStages kReferenceStages{&row_statistics, &blur_row};

// vif_reference with `stages` for the row stages; everything else (edges, the
// pyramid, the sums and scores) is the reference's.
VifScores vif_with_stages(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                          const VifOptions& options, const VifStages& stages);

// The per-pixel half (what an engine computes): each level's integer sums,
// zero for a level that is skipped or that the pyramid halves to nothing.
// Same checks and errors as vif_reference.
using VifLevelSums = std::array<LevelSums, kLevels>;
VifLevelSums vif_level_sums(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                            const VifOptions& options, const VifStages& stages);

// The host half: the scores from the level sums.
VifScores vif_scores(const VifLevelSums& sums, const VifOptions& options);

}  // namespace exactvq::vif
