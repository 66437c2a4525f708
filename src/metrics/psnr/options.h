// The `psnr` feature's options, libvmaf's integer psnr's (integer_psnr.c).
#pragma once

#include "core/picture.h"
#include "metrics/feature_spec.h"

namespace exactvq::psnr {

struct PsnrOptions {
  bool enable_chroma = true;  // forced off for monochrome input
  bool enable_mse = false;
  bool enable_apsnr = false;
  bool reduced_hbd_peak = false;
  double min_sse = 0.0;  // > 0: sets each plane's ceiling (psnr_max)
};

// Throws UsageError naming the option on an unknown key or a bad value.
PsnrOptions parse_psnr_options(const FeatureSpec& spec);

// The planes scored: 1 (luma) or 3.
inline int scored_planes(const PsnrOptions& o, const VideoFormat& f) {
  return o.enable_chroma && f.chroma != ChromaFormat::kMono ? 3 : 1;
}

}  // namespace exactvq::psnr
