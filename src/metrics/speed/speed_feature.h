// The `speed_chroma` and `speed_temporal` features: libvmaf's SpEED (speed.c)
// with its names and options. speed_chroma scores each frame's U and V planes
// (speed_chroma_u, _v, and _uv, their mean or the one that was not singular),
// each clipped at speed_max_val. speed_temporal scores the change of the luma
// from the frame before in the reference against the distorted one's; its first
// frame is 0. Its frames must come in order, none skipped; a run that starts
// inside a video is handed the frame before (Feature::start_at).
#pragma once

#include <memory>

#include "metrics/feature.h"
#include "metrics/speed/options.h"

namespace exactvq {

// Throw InputError naming the feature and the size where SpEED has no value
// for the pictures (too small, a depth libvmaf does not convert, no chroma);
// DeviceError on a device without a SpEED engine.
std::unique_ptr<Feature> make_speed_chroma_feature(const speed::SpeedOptions& options,
                                                   const FeatureContext& ctx);
std::unique_ptr<Feature> make_speed_temporal_feature(const speed::SpeedOptions& options,
                                                     const FeatureContext& ctx);

}  // namespace exactvq
