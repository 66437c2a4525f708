// The `motion` feature: libvmaf's integer motion (integer_motion.c) with its
// names and options. Per frame, VMAF_integer_feature_motion_sad_score (and
// integer_motion with debug); over the run, integer_motion2 and
// integer_motion3. Frames must come in order, none skipped: each frame's SAD
// compares its reference picture with the one before (two before with the
// five-frame window), which the device's motion engine (engine.h) keeps from
// the previous batch.
#pragma once

#include <memory>

#include "metrics/feature.h"
#include "metrics/motion/options.h"

namespace exactvq {

// Throws DeviceError on a device without a motion engine.
std::unique_ptr<Feature> make_motion_feature(const motion::MotionOptions& options,
                                             const FeatureContext& ctx);

}  // namespace exactvq
