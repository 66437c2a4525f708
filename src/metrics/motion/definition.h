/* The `motion` feature's per-pixel definition (docs/spec/motion.md),
 * written once for every backend in the subset of core/portable.h: the blur's
 * taps and the index a tap reads at a line's edges. The CPU reference and
 * kernels (sad.h) and the CUDA kernel take these from here.
 */
#ifndef EXACTVQ_METRICS_MOTION_DEFINITION_H
#define EXACTVQ_METRICS_MOTION_DEFINITION_H

#include "core/portable.h"

/* libvmaf's 5-tap blur (integer_motion.h), taps summing to 65536. */
#define EXACTVQ_MOTION_TAPS 5
#define EXACTVQ_MOTION_RADIUS 2
#define EXACTVQ_MOTION_TAP_LIST 3571, 16004, 26386, 16004, 3571

EXACTVQ_CONSTEXPR_FN exactvq_i32 motion_tap(int k) {
  return k == 0 || k == 4 ? 3571 : k == 1 || k == 3 ? 16004 : 26386;
}

/* The index a tap reads at position i of a line of `size` samples: mirrored
 * about the edge samples (-1 -> 1, size -> size - 2), as libvmaf mirrors for
 * size >= 3. Smaller lines, where libvmaf reads outside the picture, reflect
 * again until inside (size 1 reads its one sample). */
EXACTVQ_CONSTEXPR_FN int motion_mirror(int i, int size) {
  if (size == 1) return 0;
  for (;;) {
    if (i < 0)
      i = -i;
    else if (i >= size)
      i = 2 * size - i - 2;
    else
      return i;
  }
}

#endif /* EXACTVQ_METRICS_MOTION_DEFINITION_H */
