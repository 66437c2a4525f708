// A plane whose rows are followed by padding (a stride wider than the row) and
// whose first sample may sit `offset` samples into its buffer: the padding is
// filled with values a routine must never read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/picture.h"

namespace exactvq::twins {

struct PaddedPlane {
  std::vector<uint8_t> bytes;
  PlaneView view;

  PaddedPlane(int w, int h, int bits, int pad, int offset = 0) {
    const int bps = bits > 8 ? 2 : 1;
    const ptrdiff_t stride = ptrdiff_t(w + pad) * bps;
    bytes.assign(size_t(stride * h + offset * bps), 0);
    view = {bytes.data() + offset * bps, stride, w, h, bps};
  }
  void set(int x, int y, uint32_t v) {
    uint8_t* p = bytes.data() + (view.data - bytes.data()) + y * view.stride;
    if (view.bytes_per_sample == 2)
      reinterpret_cast<uint16_t*>(p)[x] = uint16_t(v);
    else
      p[x] = uint8_t(v);
  }
  // Fills the padding with `v`.
  void poison(uint32_t v) {
    for (int y = 0; y < view.height; ++y)
      for (int x = view.width; x < int(view.stride / view.bytes_per_sample); ++x) set(x, y, v);
  }
};

}  // namespace exactvq::twins
