// ADM's contrast sensitivity factors, per scale and orientation, and the
// fixed-point forms libvmaf derives from them. adm_csf_mode 0 (the default):
// 1 / Q(lambda, theta) of Watson et al.'s wavelet noise-visibility model (1997)
// for luma at the viewing geometry nvd * rdh, computed at start-up with pow and
// log10 (for the default geometry, 3 * 1080, pinned here as data); modes 1..3:
// Barten's CSF or the blended tables (barten_csf.h). The factors are all a CSF
// mode changes: every engine takes them from here.
#pragma once

#include <cstdint>

namespace exactvq::adm {

struct AdmOptions;  // options.h

// Watson's luma parameters and the 7-9 basis-function amplitudes A(lambda, theta),
// theta 1 (h and v bands) and 2 (d band), as libvmaf's float literals.
struct WatsonModel {
  float a, k, f0;
  float g[4];
  float amplitude[4][4];  // [lambda][theta], lambdas 0..3
};
extern const WatsonModel kWatsonLuma;

struct CsfFactors {
  // Per scale: the factor of the h and v bands (theta 1) and of the d band (theta 2).
  float factor_hv[4];
  float factor_d[4];
  // pow((double)factor, 3), the denominator's weights, exactly rounded.
  double cube_hv[4];
  double cube_d[4];
  // Scale 0 in Q21 (h, v) and Q23 (d): libvmaf's constants 36453, 36453,
  // 49417 for Watson's at the default geometry, else the factors times 2^21,
  // 2^23 truncated (as x86-64 converts: to an int32, then its low 16 bits).
  uint16_t scale0_fixed[3];
  // Scales 1..3 in Q32 (index 1..3; index 0 unused): factor * 2^32 truncated
  // (to an int64, then its low 32 bits: Barten's factors exceed 1).
  uint32_t fixed_hv[4];
  uint32_t fixed_d[4];
};

// The factors for nvd * rdh (the model depends on nothing else). The default
// product 3240 returns the pinned data; any other is computed as libvmaf does,
// with this machine's log10 and pow (the one place ADM's result can depend on
// the C library, and only off the default geometry).
CsfFactors csf_factors(double norm_view_dist, int ref_display_height);

// The factors of the options' CSF mode at their geometry (Barten's also
// scaled by adm_csf_scale, adm_csf_diag_scale). Throws UsageError for a
// blended mode (2, 3) at a geometry libvmaf has no table for.
CsfFactors csf_factors(const AdmOptions& o);

// The pinned data for 3240, for the tests that recompute it independently.
const CsfFactors& default_csf_factors();

// The display's resolution in pixels per degree, (float)(nvd * rdh * pi / 180).
float pixels_per_degree(double norm_view_dist, int ref_display_height);

// pow((double)f, 3) rounded to nearest even from the exact 72-bit cube.
double exact_cube(float f);

}  // namespace exactvq::adm
