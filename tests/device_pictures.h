// Seeded picture pairs for the device tests (CUDA, OpenCL): random, noisy and
// extreme contents of any format.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <utility>
#include <vector>

#include "core/picture.h"

namespace exactvq::testing_devices {

enum class Content { kRandom, kNoisy, kExtremes };

struct PictureSize {
  int w, h;
};

// A reference and distorted pair: independent random samples, a noisy copy
// (scores near 1), or planes of 0, M and checkerboards (the bounds of the spec).
inline void fill_pair(Picture& ref, Picture& dist, const VideoFormat& f, Content c,
                      std::mt19937_64& rng) {
  ref.allocate(f);
  dist.allocate(f);
  const uint32_t max = f.max_sample();
  for (int p = 0; p < f.plane_count(); ++p) {
    const size_t n = size_t(f.plane_width(p)) * f.plane_height(p);
    const int w = f.plane_width(p);
    const uint32_t pattern = uint32_t(rng() % 4);
    for (size_t i = 0; i < n; ++i) {
      uint32_t a = 0, b = 0;
      const size_t x = i % size_t(w), y = i / size_t(w);
      switch (c) {
        case Content::kRandom:
          a = uint32_t(rng() % (max + 1));
          b = uint32_t(rng() % (max + 1));
          break;
        case Content::kNoisy: {
          a = uint32_t((x * 37 + y * 11 + (rng() % 64)) % (max + 1));
          const int64_t noise = int64_t(rng() % 17) - 8;
          b = uint32_t(std::clamp<int64_t>(int64_t(a) + noise, 0, max));
          break;
        }
        case Content::kExtremes: {
          const bool odd = ((x + y) & 1) != 0;
          a = pattern == 0 ? max : pattern == 1 ? 0 : (odd ? max : 0);
          b = pattern == 2 ? (odd ? 0 : max) : pattern == 3 ? max - a : a;
          break;
        }
      }
      if (f.bitdepth > 8) {
        reinterpret_cast<uint16_t*>(ref.plane_data(p))[i] = uint16_t(a);
        reinterpret_cast<uint16_t*>(dist.plane_data(p))[i] = uint16_t(b);
      } else {
        ref.plane_data(p)[i] = uint8_t(a);
        dist.plane_data(p)[i] = uint8_t(b);
      }
    }
  }
}

// Reference and distorted pictures side by side, and their frame pairs numbered
// from 0. The pairs point into the pictures: moved, never copied.
struct PictureFrames {
  std::vector<Picture> refs, dists;
  std::vector<FramePair> pairs;

  PictureFrames(std::vector<Picture> r, std::vector<Picture> d)
      : refs(std::move(r)), dists(std::move(d)) {
    for (size_t i = 0; i < refs.size() && i < dists.size(); ++i)
      pairs.push_back({&refs[i], &dists[i], int64_t(i)});
  }
  PictureFrames(const PictureFrames&) = delete;
  PictureFrames& operator=(const PictureFrames&) = delete;
  PictureFrames(PictureFrames&&) = default;  // a vector's elements keep their addresses

  const VideoFormat& format() const { return refs.at(0).format; }
};

// Random, noisy and extreme contents in turn.
inline Content content_in_turn(size_t i) { return Content(i % 3); }

// `count` seeded pairs of `f`, pair i of content(i), drawn in order from `rng`.
inline PictureFrames seeded_frames(
    const VideoFormat& f, size_t count, std::mt19937_64& rng,
    const std::function<Content(size_t)>& content = content_in_turn) {
  std::vector<Picture> refs(count), dists(count);
  for (size_t i = 0; i < count; ++i) fill_pair(refs[i], dists[i], f, content(i), rng);
  return {std::move(refs), std::move(dists)};
}

}  // namespace exactvq::testing_devices
