// Banded pictures in memory for cambi's device tests: a slow gradient over a
// few dozen codes quantised to steps (the bands whose edges cambi counts),
// textured boxes and sparse noise (samples the mask leaves out), the
// distorted picture quantised coarser. Random samples alone would leave the
// mask empty and every contrast value 0.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "core/picture.h"
#include "device_pictures.h"
#include "metrics/vif/vif_clips.h"

namespace exactvq::cambi::testing {

struct BandedLuma {
  std::vector<uint16_t> ref, dist;
};

inline BandedLuma banded_luma(int w, int h, int bitdepth, std::mt19937_64& rng) {
  const int peak = int((uint32_t{1} << bitdepth) - 1);
  const int unit = 1 << std::max(0, bitdepth - 10);  // one 10-bit code
  const int low = int(rng() % uint64_t(peak / 2)) + peak / 8;
  const int span = (4 + int(rng() % 40)) * unit * (bitdepth == 8 ? 1 : 2);
  const double ax = double(rng() % 100) / 100.0, ay = 1.0 - ax;
  const int ref_step = unit * (1 + int(rng() % 2)), dist_step = unit * (1 + int(rng() % 4));
  const int noise = int(rng() % 3);
  struct Box {
    int x0, y0, x1, y1;
  };
  std::vector<Box> boxes;
  for (int b = int(rng() % 5); b > 0; --b) {
    const int x0 = int(rng() % uint64_t(w)), y0 = int(rng() % uint64_t(h));
    boxes.push_back(
        {x0, y0, std::min(w, x0 + 8 + int(rng() % 96)), std::min(h, y0 + 8 + int(rng() % 96))});
  }
  BandedLuma out;
  out.ref.resize(size_t(w) * size_t(h));
  out.dist.resize(out.ref.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double g = low + span * (ax * x / w + ay * y / h);
      int r = int(g) / ref_step * ref_step, d = int(g) / dist_step * dist_step;
      for (const Box& b : boxes)
        if (x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1) {
          r += int(rng() % uint64_t(8 * unit));
          d = r;
        }
      if (noise == 1 && rng() % 16 == 0) d += unit;
      if (noise == 2 && rng() % 64 == 0) r += unit;
      const size_t at = size_t(y) * size_t(w) + size_t(x);
      out.ref[at] = uint16_t(std::clamp(r, 0, peak));
      out.dist[at] = uint16_t(std::clamp(d, 0, peak));
    }
  return out;
}

// `count` banded pairs of format `f` (its chroma mid-grey).
inline testing_devices::PictureFrames banded_frames(const VideoFormat& f, size_t count,
                                                    std::mt19937_64& rng) {
  std::vector<Picture> refs, dists;
  for (size_t i = 0; i < count; ++i) {
    const BandedLuma l = banded_luma(f.width, f.height, f.bitdepth, rng);
    refs.push_back(vif_testing::luma_picture(f, l.ref));
    dists.push_back(vif_testing::luma_picture(f, l.dist));
  }
  return {std::move(refs), std::move(dists)};
}

}  // namespace exactvq::cambi::testing
