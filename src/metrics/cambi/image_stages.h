// Cambi's per-image integer stages beside the window counts: the spatial mask
// and the 3x3 mode filter (reference.h defines them), and their Highway twins
// (cpu/image_stages_simd.cpp): the same bytes, kept scratch instead of whole
// images of temporaries.
#pragma once

#include <cstdint>

#include "core/picture.h"
#include "metrics/cambi/setup.h"

namespace exactvq::cambi {

// ten_bit_image (reference.h): pictures of the plan's size at up to 10 bits
// (shifted up) converted, and anti-dithered, in vectors; other pictures (a
// resampled plan, more than 10 bits) by the reference.
void ten_bit_image_simd(const PlaneView& luma, const CambiSetup& s, const ImagePlan& plan,
                        uint16_t* out);

// anti_dither (reference.h), in place as the reference's pass.
void anti_dither_simd(uint16_t* image, int w, int h);

// spatial_mask (reference.h): each thread keeps one row of column counts
// and the flat samples of the 7-row window's rows between calls, each row's
// found once as it enters the window. With `halved`, the mask decimated
// (reference.h's decimate): only the even rows' and columns' values, found
// at full size, (w + 1) / 2 x (h + 1) / 2 of them.
void spatial_mask_simd(const uint16_t* image, int w, int h, uint8_t* mask, bool halved = false);

// decimate (reference.h), in place as the reference's.
void decimate_simd(uint16_t* image, int w, int h);
void decimate_simd(uint8_t* image, int w, int h);

// mode_filter (reference.h): each thread keeps three rows of the horizontal
// pass (a row is written only after the pass of the row below it is taken).
void mode_filter_simd(uint16_t* image, int w, int h);

}  // namespace exactvq::cambi
