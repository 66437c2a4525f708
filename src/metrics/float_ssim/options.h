// The options of libvmaf's float_ssim and float_ms_ssim (float_ssim.c,
// float_ms_ssim.c): their names, defaults and ranges.
#pragma once

#include "metrics/feature_spec.h"
#include "metrics/ssim/options.h"

namespace exactvq::float_ssim {

// The largest explicit downscaling factor float_ssim takes (0 = automatic).
inline constexpr int kMaxScale = 10;

// float_ssim's options.
struct SsimOptions {
  bool enable_lcs = false;  // also float_ssim_l, float_ssim_c, float_ssim_s
  bool enable_db = false;   // float_ssim as -10 log10(1 - ssim)
  bool clip_db = false;     // the decibels at most ceil(10 log10(peak^2 * 2 w h))
  int scale = 0;            // 0: automatic (from the picture's size), 1: none, 2..10: that factor
  ssim::Fp64Mode fp64 =
      ssim::Fp64Mode::kAuto;  // how a GPU forms the binary64 terms (the CPU: natively)
};

// float_ms_ssim's options (no scale: MS-SSIM halves five times).
struct MsSsimOptions {
  bool enable_lcs = false;  // also float_ms_ssim_{l,c,s}_scale0..4
  bool enable_db = false;
  bool clip_db = false;
  ssim::Fp64Mode fp64 = ssim::Fp64Mode::kAuto;
};

// Throw UsageError naming the feature, key and value on an unknown key or a
// value that is not a boolean, an integer in range, or auto/native/emulate (fp64).
SsimOptions parse_ssim_options(const FeatureSpec& spec);
MsSsimOptions parse_ms_ssim_options(const FeatureSpec& spec);

// libvmaf flags none of these options as a feature parameter, so its output
// names carry no suffix whatever the options: float_ssim=scale=1:enable_db=true
// still writes "float_ssim" (the AOM CTC runs rely on that).

}  // namespace exactvq::float_ssim
