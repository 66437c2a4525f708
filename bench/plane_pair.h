// A synthetic reference/distorted plane pair for benchmarks: a smooth gradient
// plus noise, distorted by more noise, at any size and bit depth.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "core/picture.h"

namespace exactvq::bench {

struct PlanePair {
  std::vector<uint8_t> ref, dist;
  PlaneView r, d;
  int bitdepth;

  PlanePair(int w, int h, int bits, uint32_t seed = 1234) : bitdepth(bits) {
    const int bps = bits > 8 ? 2 : 1;
    ref.resize(size_t(w) * size_t(h) * size_t(bps));
    dist.resize(ref.size());
    std::mt19937 rng(seed);
    const uint32_t max = (1u << bits) - 1;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const uint32_t base = uint32_t(uint64_t(x + y) * max / uint64_t(w + h));
        const uint32_t s = std::min<uint32_t>(max, base + uint32_t(rng()) % (max / 16 + 1));
        const uint32_t t = std::min<uint32_t>(max, s + uint32_t(rng()) % (max / 32 + 1));
        const size_t i = size_t(y) * size_t(w) + size_t(x);
        if (bps == 1) {
          ref[i] = uint8_t(s);
          dist[i] = uint8_t(t);
        } else {
          reinterpret_cast<uint16_t*>(ref.data())[i] = uint16_t(s);
          reinterpret_cast<uint16_t*>(dist.data())[i] = uint16_t(t);
        }
      }
    r = {ref.data(), ptrdiff_t(w) * bps, w, h, bps};
    d = {dist.data(), ptrdiff_t(w) * bps, w, h, bps};
  }
};

}  // namespace exactvq::bench
