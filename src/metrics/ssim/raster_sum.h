// The `raster` frame sum (spec/ssim.md): libvmaf's sequential binary64 sum of
// the terms, rows top to bottom, each left to right. Every backend adds a
// plane's terms, row after row, with this one loop.
#pragma once

#include <cstddef>

namespace exactvq::ssim {

// `sum` plus terms[0], terms[1], ..., one rounded addition at a time.
inline double add_in_raster_order(double sum, const double* terms, size_t count) {
  for (size_t i = 0; i < count; ++i) sum += terms[i];
  return sum;
}

}  // namespace exactvq::ssim
