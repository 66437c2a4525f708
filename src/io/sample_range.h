// Finding the first sample above a bit depth's maximum, as the readers check
// 9..15-bit input: a Highway kernel (cpu/sample_range_simd.cpp) and the plain
// loop that defines it (sample_range_reference.cpp), twins (tests/twins/).
#pragma once

#include <cstddef>
#include <cstdint>

namespace exactvq {

// The index of the first of s[0, n) above `max`; n if none is.
size_t first_above(const uint16_t* s, size_t n, uint16_t max);

// The definition: the samples in order, one at a time.
size_t first_above_reference(const uint16_t* s, size_t n, uint16_t max);

}  // namespace exactvq
