/* Where a pixel's chroma comes from (reference.h's chroma_site), one text for
 * the host, CUDA devices and OpenCL (the subset of core/portable.h): integers
 * only. */
#ifndef EXACTVQ_METRICS_CIEDE_CHROMA_SITE_H
#define EXACTVQ_METRICS_CIEDE_CHROMA_SITE_H

#include "core/portable.h"

#define CIEDE_CHROMA_444 0
#define CIEDE_CHROMA_420 1
#define CIEDE_CHROMA_422 2

/* The chroma layout of a picture format, as ciede_chroma_site reads it. */
typedef struct CiedeChromaReading {
  exactvq_i32 kind;        /* CIEDE_CHROMA_* */
  exactvq_i32 width;       /* the picture's width */
  exactvq_i64 padded_half; /* 4:2:2: libvmaf's chroma row, floor(W/2) rounded up to 32 */
} CiedeChromaReading;

/* A pixel's chroma sample in exactvq's chroma planes; zero: libvmaf's zeroed
 * padding (the sample is 0). */
typedef struct CiedeChromaSite {
  exactvq_i32 row, col, zero;
} CiedeChromaSite;

/* Where pixel (x, y)'s chroma comes from. 4:4:4: the same place. 4:2:0:
 * (x/2, y/2). 4:2:2: libvmaf's reading, which halves the row but not the
 * column: it takes sample y/2 * S + x of the plane as libvmaf lays it out
 * (rows of S = the half width rounded up to 32 samples, the columns past the
 * half width zero), so a row past the half width runs into the padding and
 * then the next row. */
EXACTVQ_FN CiedeChromaSite ciede_chroma_site(CiedeChromaReading r, exactvq_i32 x, exactvq_i32 y) {
  CiedeChromaSite site;
  site.zero = 0;
  if (r.kind == CIEDE_CHROMA_420) {
    site.row = y / 2;
    site.col = x / 2;
  } else if (r.kind == CIEDE_CHROMA_422) {
    const exactvq_i64 k = (exactvq_i64)(y / 2) * r.padded_half + x;
    site.row = (exactvq_i32)(k / r.padded_half);
    site.col = (exactvq_i32)(k % r.padded_half);
    site.zero = site.col >= r.width / 2;
  } else {
    site.row = y;
    site.col = x;
  }
  return site;
}

#endif /* EXACTVQ_METRICS_CIEDE_CHROMA_SITE_H */
