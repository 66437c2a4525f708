// The `ciede` feature: libvmaf's ciede (ciede.c), key ciede2000 per frame:
// 45 - 20 log10 of the frame's mean CIEDE2000 colour difference. The device's
// engine (engine.h) sums the pixels' delta E; the score comes from the sum on
// the host.
#pragma once

#include <memory>

#include "metrics/ciede/options.h"
#include "metrics/feature.h"

namespace exactvq {

// Throws InputError for formats ciede has no value for (reference.h's
// check_ciede_format), DeviceError when the device has no ciede engine.
std::unique_ptr<Feature> make_ciede_feature(const ciede::CiedeOptions& options,
                                            const FeatureContext& ctx);

}  // namespace exactvq
