// The `cambi` feature: libvmaf's banding metric (cambi.c) with its names and
// options. Per frame, the distorted picture's score under the key "cambi"
// with libvmaf's option suffix; with full_ref also "cambi_source" (the
// reference picture's) and "cambi_full_reference" (how much more banding the
// distorted picture has). Frames are scored alone: any order, any split.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "metrics/cambi/options.h"
#include "metrics/feature.h"

namespace exactvq {

namespace cambi {

// The output keys under these options, in order.
std::vector<std::string> output_names(const CambiOptions& o);

// A frame's reported values from its engine values (kScales, or 2 kScales
// with full_ref): the scores capped at max_val, and with full_ref the
// reference's and max(0, distorted - reference), capped.
void frame_values(const CambiOptions& o, int dist_window, int src_window,
                  std::span<const double> scales, std::span<double> out);

}  // namespace cambi

// Throws InputError where the format cannot be scored (setup.h), DeviceError
// on a device without a cambi engine.
std::unique_ptr<Feature> make_cambi_feature(const cambi::CambiOptions& options,
                                            const FeatureContext& ctx);

}  // namespace exactvq
