// ciede's scalar reference: which samples each pixel's colour is made of (the
// chroma upsampling), each pixel's delta E (definition.h), the frame's sum in
// raster order and its score; and the formats the definition takes.
#pragma once

#include <cstdint>

#include "core/picture.h"

namespace exactvq::ciede {

// Throws InputError, naming `where`, the format and why, unless libvmaf's ciede
// defines a value for it: Y'CbCr (not monochrome) at 8, 10, 12 or 16 bits; for
// 4:2:2 an even width, and a height for which libvmaf's reads stay in its picture.
void check_ciede_format(const VideoFormat& f, const char* where);

// Where pixel (x, y)'s chroma comes from, in exactvq's chroma planes.
// 4:4:4: the same place. 4:2:0: (x/2, y/2). 4:2:2: libvmaf's reading, which
// halves the row but not the column: it takes sample y/2 * S + x of the plane
// as libvmaf lays it out (rows of S = the half width rounded up to 32 samples,
// the columns past the half width zero), so a row past the half width runs into
// the padding and then the next row.
struct ChromaSite {
  int row = 0, col = 0;
  bool zero = false;  // libvmaf's zeroed padding: the sample is 0
};
ChromaSite chroma_site(const VideoFormat& f, int x, int y);

// A pixel's luma sample and the chroma samples chroma_site() gives it.
struct PixelSamples {
  uint16_t y = 0, u = 0, v = 0;
};

// Row y's samples of each pixel into out[0 .. width).
void row_samples(const Picture& pic, int y, PixelSamples* out);

// Row y's delta E of each pixel into out[0 .. width).
void delta_e_row(const Picture& ref, const Picture& dist, int y, float* out);

// The frame's sum of delta E, pixel by pixel in raster order, in binary64.
double delta_e_sum_reference(const Picture& ref, const Picture& dist);

// The frame's score from that sum: 45 - 20 log10(sum / (W H)).
double ciede_score(double delta_e_sum, int width, int height);

}  // namespace exactvq::ciede
