// Cambi's luminance model (libvmaf's luminance_tools.c): a 10-bit luma code in
// the limited range [64, 940], normalised to [0, 1] and taken through an EOTF
// to cd/m^2. The C library's pow goes through exactvq::libm.
#pragma once

#include "metrics/cambi/options.h"

namespace exactvq::cambi {

// The limited range at 10 bits: 16 << 2 and 235 << 2.
inline constexpr int kLumaFoot = 64;
inline constexpr int kLumaHead = 940;

// BT.1886 with white 300 and black 0.01 cd/m^2, gamma 2.4.
double bt1886_eotf(double v);
// SMPTE ST 2084 (PQ), up to 10000 cd/m^2.
double pq_eotf(double v);

// The luminance of a 10-bit code: clipped to [foot, head], normalised, through `eotf`.
double luminance(int code, Eotf eotf);

}  // namespace exactvq::cambi
