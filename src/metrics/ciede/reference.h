// ciede's scalar reference: which samples each pixel's colour is made of (the
// chroma upsampling), each pixel's delta E (definition.h), the frame's sum in
// raster order and its score; and the formats the definition takes.
#pragma once

#include <cstdint>

#include "core/picture.h"
#include "metrics/ciede/chroma_site.h"

namespace exactvq::ciede {

// Throws InputError, naming `where`, the format and why, unless libvmaf's ciede
// defines a value for it: Y'CbCr (not monochrome) at 8, 10, 12 or 16 bits; for
// 4:2:2 an even width, and a height for which libvmaf's reads stay in its picture.
void check_ciede_format(const VideoFormat& f, const char* where);

using ChromaReading = CiedeChromaReading;
using ChromaSite = CiedeChromaSite;

// The chroma layout ciede_chroma_site (chroma_site.h) reads for format f (with
// colour), and where pixel (x, y)'s chroma comes from in a picture of format f.
ChromaReading chroma_reading(const VideoFormat& f);
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
