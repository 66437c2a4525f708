// The `ciede` feature's options: libvmaf's ciede (ciede.c) has none; exactvq
// adds fp64 (metrics/fp64_mode.h).
#pragma once

#include "metrics/feature_spec.h"
#include "metrics/fp64_mode.h"

namespace exactvq::ciede {

struct CiedeOptions {
  // exactvq's own: how a CUDA device runs the per-pixel binary64 steps (native,
  // or softfp as OpenCL does); changes no value and no name.
  Fp64Mode fp64 = Fp64Mode::kAuto;
};

// Throws UsageError naming the key on an unknown option or a bad fp64 value.
CiedeOptions parse_ciede_options(const FeatureSpec& spec);

}  // namespace exactvq::ciede
