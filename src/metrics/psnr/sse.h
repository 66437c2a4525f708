// The sum of squared errors of a plane: the integer core of PSNR, exact on every
// backend because integer addition does not care about order.
#pragma once

#include <cstdint>

#include "core/picture.h"

namespace exactvq::psnr {

// Sum over rows [y0, y1) of a plane of (ref - dist)^2, in 64 bits. Any split of
// the rows into ranges adds up to the same total. A plane of at most
// kMaxLumaSamples samples of at most 16 bits stays below 2^60.
uint64_t sse_reference(const PlaneView& ref, const PlaneView& dist, int y0, int y1);

// The same sum, by the fastest SIMD kernel this CPU runs (Highway); the scalar
// reference when none is compiled in.
uint64_t sse(const PlaneView& ref, const PlaneView& dist, int y0, int y1);

}  // namespace exactvq::psnr
