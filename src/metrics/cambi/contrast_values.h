// The Highway twin of cambi's contrast values (reference.h's contrast_values,
// cpu/contrast_values_simd.cpp): the same window counts moved by the SIMD
// slide (window_counts.h), then a vector of a row's samples at a time, each
// lane reading its counts and the reciprocal table by gathers and keeping the
// largest value in the reference's order of contrasts. The same bytes.
#pragma once

#include <cstdint>

#include "metrics/cambi/reference.h"

namespace exactvq::cambi {

void contrast_values_simd(const uint16_t* image, const uint8_t* mask, int w, int h, int window,
                          const CambiSetup& s, float* values, ContrastScratch& scratch);

}  // namespace exactvq::cambi
