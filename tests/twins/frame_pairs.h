// Batches of seeded frame pairs for the engine rows: per frame, independent
// random samples, a noisy copy (scores near 1), or planes of 0, M and
// checkerboards (the bounds of the definition), in turn.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "core/picture.h"

namespace exactvq::twins {

struct FramePairs {
  VideoFormat format;
  std::vector<Picture> refs, dists;
  std::vector<FramePair> pairs;  // numbered 0, 1, ...

  FramePairs(const VideoFormat& f, int frames, uint64_t seed)
      : format(f), refs(size_t(frames)), dists(size_t(frames)) {
    std::mt19937_64 rng(seed);
    for (int i = 0; i < frames; ++i) {
      fill(refs[size_t(i)], dists[size_t(i)], i % 3, rng);
      pairs.push_back({&refs[size_t(i)], &dists[size_t(i)], i});
    }
  }

 private:
  void fill(Picture& ref, Picture& dist, int content, std::mt19937_64& rng) const {
    ref.allocate(format);
    dist.allocate(format);
    const uint32_t max = format.max_sample();
    for (int p = 0; p < format.plane_count(); ++p) {
      const int w = format.plane_width(p);
      const size_t n = size_t(w) * size_t(format.plane_height(p));
      const uint32_t pattern = uint32_t(rng() % 4);
      for (size_t i = 0; i < n; ++i) {
        const size_t x = i % size_t(w), y = i / size_t(w);
        uint32_t a = 0, b = 0;
        if (content == 0) {
          a = uint32_t(rng() % (uint64_t{max} + 1));
          b = uint32_t(rng() % (uint64_t{max} + 1));
        } else if (content == 1) {
          a = uint32_t((x * 37 + y * 11 + (rng() % 64)) % (uint64_t{max} + 1));
          b = uint32_t(std::clamp<int64_t>(int64_t(a) + int64_t(rng() % 17) - 8, 0, max));
        } else {
          const bool odd = ((x + y) & 1) != 0;
          a = pattern == 0 ? max : pattern == 1 ? 0 : (odd ? max : 0);
          b = pattern == 2 ? (odd ? 0 : max) : pattern == 3 ? max - a : a;
        }
        if (format.bitdepth > 8) {
          reinterpret_cast<uint16_t*>(ref.plane_data(p))[i] = uint16_t(a);
          reinterpret_cast<uint16_t*>(dist.plane_data(p))[i] = uint16_t(b);
        } else {
          ref.plane_data(p)[i] = uint8_t(a);
          dist.plane_data(p)[i] = uint8_t(b);
        }
      }
    }
  }
};

}  // namespace exactvq::twins
