// Motion's host half: a frame's SAD as libvmaf reports it, and the values that
// look along the run (integer_motion2 reads the next frame, integer_motion3 the
// previous one too), computed once every frame's SAD score is known, as
// libvmaf's flush does.
#pragma once

#include <cstdint>
#include <span>

#include "metrics/motion/options.h"

namespace exactvq::motion {

// VMAF_integer_feature_motion_sad_score of a w x h frame: sad / 256 / (w h)
// times the fps weight, capped at max_value, in that order in binary64.
double sad_score(uint64_t sad, int width, int height, const MotionOptions& o);

// libvmaf's blend of a motion value: unchanged below the offset, above it the
// excess scaled by the factor.
double blend(double value, double factor, double offset);

// integer_motion2 and integer_motion3 of every frame of a run from the SAD
// scores of all its frames (frame 0 first; frames before frame_distance() have
// score 0). Spans of equal length.
void run_values(std::span<const double> sad_scores, const MotionOptions& o,
                std::span<double> motion2, std::span<double> motion3);

}  // namespace exactvq::motion
