// A plane's psnr_hvs error sum by Highway SIMD: the twin of
// plane_error_sum_reference (reference.h), equal to it bit for bit on every
// target (tests/twins/psnr_hvs_rows.cpp).
#pragma once

#include "core/picture.h"

namespace exactvq::psnr_hvs {

// The fastest target this CPU runs; the scalar reference where none is compiled in.
float plane_error_sum(const PlaneView& ref, const PlaneView& dist, int plane);

}  // namespace exactvq::psnr_hvs
