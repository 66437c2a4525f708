// The `ssim` feature's options (FFmpeg/libvmaf syntax: ssim=key=value:...) and
// output names.
#pragma once

#include <string>
#include <vector>

#include "metrics/feature_spec.h"
#include "metrics/fp64_mode.h"

namespace exactvq::ssim {

// How a frame's terms are summed (spec/ssim.md): the exact fixed-point sum
// (any order, the same bits) or libvmaf's sequential binary64 sum in raster order.
enum class SumMode { kExact, kRaster };

// How a GPU forms the binary64 term (metrics/fp64_mode.h).
using exactvq::Fp64Mode;

struct SsimOptions {
  SumMode mode = SumMode::kExact;
  bool enable_db = false;
  bool clip_db = false;
  bool chroma = false;
  Fp64Mode fp64 = Fp64Mode::kAuto;
};

// Throws UsageError naming the option on an unknown key or a bad value.
SsimOptions parse_ssim_options(const FeatureSpec& spec);

// `spec` (an ssim spec) with sum=<mode> added unless it names a sum itself: how
// a caller sets the default mode of every ssim it is given (the C API's mode).
FeatureSpec with_default_mode(FeatureSpec spec, SumMode mode);

// The planes scored (1: luma, 3 with chroma) and their outputs: ssim, ssim_cb, ssim_cr.
inline int scored_planes(const SsimOptions& o) { return o.chroma ? 3 : 1; }
std::vector<std::string> output_names(const SsimOptions& o);

}  // namespace exactvq::ssim
