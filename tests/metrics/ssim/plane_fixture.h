// Random and patterned sample planes for SSIM tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "core/picture.h"

namespace exactvq::test {

// An owned plane of samples (uint8 at 8 bits, uint16 above) and its view.
struct OwnedPlane {
  int width = 0, height = 0, bitdepth = 8;
  std::vector<uint8_t> bytes;

  OwnedPlane(int w, int h, int bits)
      : width(w), height(h), bitdepth(bits), bytes(size_t(w) * h * (bits > 8 ? 2 : 1)) {}

  void set(int x, int y, uint32_t v) {
    const size_t i = size_t(y) * width + x;
    if (bitdepth > 8)
      reinterpret_cast<uint16_t*>(bytes.data())[i] = uint16_t(v);
    else
      bytes[i] = uint8_t(v);
  }
  uint32_t get(int x, int y) const {
    const size_t i = size_t(y) * width + x;
    return bitdepth > 8 ? reinterpret_cast<const uint16_t*>(bytes.data())[i] : bytes[i];
  }
  PlaneView view() const {
    const int bps = bitdepth > 8 ? 2 : 1;
    return {bytes.data(), ptrdiff_t(width) * bps, width, height, bps};
  }
};

enum class Pattern { kRandom, kZero, kMax, kAlternating, kSmooth };

inline OwnedPlane make_plane(int w, int h, int bits, Pattern pattern, std::mt19937_64& rng,
                             bool invert = false) {
  OwnedPlane p(w, h, bits);
  const uint32_t max = (1u << bits) - 1;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint32_t v = 0;
      switch (pattern) {
        case Pattern::kRandom:
          v = uint32_t(rng() % (max + 1));
          break;
        case Pattern::kZero:
          v = 0;
          break;
        case Pattern::kMax:
          v = max;
          break;
        case Pattern::kAlternating:
          v = ((x + y) & 1) ? max : 0;
          break;
        case Pattern::kSmooth:
          v = uint32_t((uint64_t(x * 7 + y * 3) * max / (7 * w + 3 * h + 1)));
          break;
      }
      p.set(x, y, invert ? max - v : v);
    }
  return p;
}

// `base` with random noise of amplitude `amp` (clamped to the sample range).
inline OwnedPlane add_noise(const OwnedPlane& base, uint32_t amp, std::mt19937_64& rng) {
  OwnedPlane p = base;
  const int64_t max = (int64_t{1} << base.bitdepth) - 1;
  for (int y = 0; y < base.height; ++y)
    for (int x = 0; x < base.width; ++x) {
      const int64_t v = int64_t(base.get(x, y)) + int64_t(rng() % (2 * amp + 1)) - int64_t(amp);
      p.set(x, y, uint32_t(std::clamp<int64_t>(v, 0, max)));
    }
  return p;
}

}  // namespace exactvq::test
