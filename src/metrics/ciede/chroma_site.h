// Where a pixel's chroma comes from (reference.h's chroma_site), for the host
// and, in a .cu file, for CUDA devices: one text, integers only.
#pragma once

#include <cstdint>

#include "metrics/ciede/definition.h"  // EXACTVQ_CIEDE_HD

namespace exactvq::ciede {

// The chroma layout of a picture format, as chroma_site reads it.
struct ChromaReading {
  enum Kind : int { k444, k420, k422 };
  int kind = k444;
  int width = 0;            // the picture's width
  int64_t padded_half = 0;  // 4:2:2: libvmaf's chroma row, floor(W/2) rounded up to 32
};

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

EXACTVQ_CIEDE_HD ChromaSite chroma_site(const ChromaReading& r, int x, int y) {
  ChromaSite site;
  if (r.kind == ChromaReading::k420) {
    site.row = y / 2;
    site.col = x / 2;
  } else if (r.kind == ChromaReading::k422) {
    const int64_t k = int64_t{y / 2} * r.padded_half + x;
    site.row = int(k / r.padded_half);
    site.col = int(k % r.padded_half);
    site.zero = site.col >= r.width / 2;
  } else {
    site.row = y;
    site.col = x;
  }
  return site;
}

}  // namespace exactvq::ciede
