// The `motion` feature's options: libvmaf's integer motion (integer_motion.c),
// with its names, aliases, defaults and ranges.
#pragma once

#include <string>

#include "metrics/feature_spec.h"

namespace exactvq::motion {

struct MotionOptions {
  bool force_zero = false;         // motion_force_zero / force_0: every value 0
  double blend_factor = 1.0;       // motion_blend_factor / mbf, [0, 1]
  double blend_offset = 40.0;      // motion_blend_offset / mbo, [0, 1000]
  double fps_weight = 1.0;         // motion_fps_weight / mfw, [0, 5]
  double max_value = 10000.0;      // motion_max_val / mmxv, [0, 10000]
  bool five_frame_window = false;  // motion_five_frame_window / mffw
  bool moving_average = false;     // motion_moving_average / mma
  bool debug = false;              // also VMAF_integer_feature_motion_score
};

// Throws UsageError naming the option on an unknown key or a value out of range.
MotionOptions parse_motion_options(const FeatureSpec& spec);

// What libvmaf appends to the output names under these options, e.g. "_mbf_0.5".
std::string key_suffix(const MotionOptions& o);

// The frames before a frame that its motion compares it with: 1, or 2 with
// the five-frame window.
inline int frame_distance(const MotionOptions& o) { return o.five_frame_window ? 2 : 1; }

}  // namespace exactvq::motion
