// The `ciede` feature's options: libvmaf's ciede (ciede.c) has none.
#pragma once

#include "metrics/feature_spec.h"

namespace exactvq::ciede {

struct CiedeOptions {};

// Throws UsageError naming the key on any option.
CiedeOptions parse_ciede_options(const FeatureSpec& spec);

}  // namespace exactvq::ciede
