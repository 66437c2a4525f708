// What cambi derives from its options and the video's format before the first
// frame (libvmaf's init): the sizes each picture is scored at, the windows,
// the contrast thresholds and the pooling share. Every refusal happens here,
// naming the feature and the size.
#pragma once

#include <array>
#include <vector>

#include "core/picture.h"
#include "metrics/cambi/options.h"

namespace exactvq::cambi {

inline constexpr int kScales = 5;
// libvmaf refuses an encoding (or source) size under this in both sides.
inline constexpr int kMinSide = 216;
inline constexpr int kMaxDiffs = 32;  // 1 << max_log_contrast, at most
// The weight of a contrast of d + 1 codes (the suprathreshold response).
inline constexpr int kContrastWeight[kMaxDiffs] = {1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
                                                   8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};

// How one picture becomes cambi's 10-bit image: its size and window.
struct ImagePlan {
  int width = 0, height = 0;  // the size scored (the encoding's, or the source's)
  int window = 0;             // the odd window side at that size
  // The picture's row and column each sample is taken from (nearest
  // neighbour); empty where the picture already has this size.
  std::vector<int> source_rows, source_cols;
};

struct CambiSetup {
  int input_bitdepth = 8;
  int enc_bitdepth = 8;           // below 10: the 10-bit image is smoothed (anti-dithering)
  bool high_res_speedup = false;  // scale 0 is already halved
  bool full_ref = false;
  int num_diffs = 4;  // the contrasts 1 .. num_diffs (10-bit codes) looked at
  // Per contrast d + 1: the largest code (plus num_diffs) whose step of d + 1
  // codes is still below the visibility threshold.
  std::array<int, kMaxDiffs> tvi_for_diff{};
  int vlt_luma = 0;  // codes (plus num_diffs) at or below this minus d + 1 are dark: skipped
  double topk = 0.6;
  ImagePlan distorted;  // the encoding's size
  ImagePlan source;     // the source's size (with full_ref)
};

// Throws InputError naming the feature and the sizes where libvmaf refuses
// (an encoding or source size under kMinSide in both sides, a source larger
// in one side and smaller in the other, a window too large for the
// reciprocal table) or where it would read outside its buffers (a window
// reaching past a scale's picture; a 10-bit picture copied at another
// stride), and UsageError where its threshold search never ends or the
// visibility threshold leaves no code to count (libvmaf crashes there).
CambiSetup make_cambi_setup(const CambiOptions& o, const VideoFormat& format);

// The sizes of the five scales of a plan: scale 0 is the plan's size (halved
// with the high-resolution speed-up), each next one half the previous, rounded up.
std::array<std::array<int, 2>, kScales> scale_sizes(const ImagePlan& plan, bool high_res_speedup);

}  // namespace exactvq::cambi
