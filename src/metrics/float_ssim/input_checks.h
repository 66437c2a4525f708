// The pictures docs/spec/float_ssim.md scores: the bit depths it converts, the
// sizes its decimations and scales take, and the checks that refuse the rest.
#pragma once

#include "metrics/float_ssim/options.h"

namespace exactvq::float_ssim {

// MS-SSIM refuses pictures under 176 pixels in either dimension: 176 halved
// (rounding down) four times is 11, the window's width.
inline constexpr int kMsSsimMinSide = 176;

// The bit depths libvmaf converts to float: 8 as is, 10, 12 and 16 divided by
// 4, 16 and 256 (its picture_copy; any other depth it reads as bytes of the
// 16-bit samples, which exactvq refuses).
bool converts_bit_depth(int bitdepth);

// Throws InputError naming `where` on a bit depth converts_bit_depth refuses.
void check_bit_depth(int bitdepth, const char* where);

// Decimation as iqa's _iqa_decimate: ceil-ish output size w / factor + (w & 1).
int decimated_size(int size, int factor);
// Whether decimating a side of `size` with a `taps`-wide kernel reads only
// inside the picture after mirroring (libvmaf reads outside it otherwise).
bool decimation_fits(int size, int factor, int taps);

// float_ssim's downscaling factor: `scale` when given, else
// max(1, round(min(w, h) / 256)) in binary32 (iqa's _round: halves away from zero).
int ssim_scale(int width, int height, int scale_option);

// Throws InputError naming `where` where libvmaf's definition gives no value:
// a bit depth it does not convert, an explicit scale whose box filter reads
// outside the picture; for MS-SSIM also a side under 176.
void check_ssim_input(int width, int height, int bitdepth, const SsimOptions& o, const char* where);
void check_ms_ssim_input(int width, int height, int bitdepth, const char* where);

}  // namespace exactvq::float_ssim
