// Seeded frame pairs for ciede's tests: random samples of a few kinds (smooth
// colour fields with noise, the whole range, the extremes only), in the
// command-line tests' Frame layout (cli/cli_test_util.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "cli/cli_test_util.h"

namespace exactvq::ciede_testing {

using clitest::Frame;

enum class Kind { kSmooth, kFullRange, kExtremes };

// A reference frame and a distorted one of `kind`, from `seed`.
inline std::pair<Frame, Frame> random_pair(const VideoFormat& f, Kind kind, uint32_t seed) {
  std::mt19937 rng(seed);
  const int peak = int(f.max_sample());
  Frame ref, dist;
  const int noise = std::max(1, peak >> (2 + rng() % 6));
  for (int p = 0; p < f.plane_count(); ++p) {
    const int w = f.plane_width(p), h = f.plane_height(p);
    auto& r = ref[size_t(p)];
    auto& d = dist[size_t(p)];
    r.resize(size_t(w) * size_t(h));
    d.resize(r.size());
    const double phase = double(rng() % 1000) / 100.0, fx = 0.05 + double(rng() % 100) / 150.0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const size_t i = size_t(y) * size_t(w) + size_t(x);
        int a = 0, b = 0;
        switch (kind) {
          case Kind::kSmooth: {
            const double s = 0.5 + 0.45 * std::sin(fx * x + 0.3 * y + phase + p);
            a = std::clamp(int(s * peak) + int(rng() % 9) - 4, 0, peak);
            b = std::clamp(a + int(rng() % uint32_t(2 * noise + 1)) - noise, 0, peak);
            break;
          }
          case Kind::kFullRange:
            a = int(rng() % uint32_t(peak + 1));
            b = rng() % 4 == 0 ? a : int(rng() % uint32_t(peak + 1));
            break;
          case Kind::kExtremes: {
            const int values[] = {0,
                                  peak,
                                  0,
                                  peak,
                                  16 << (f.bitdepth - 8),
                                  235 << (f.bitdepth - 8),
                                  128 << (f.bitdepth - 8)};
            a = values[rng() % 7];
            b = values[rng() % 7];
            break;
          }
        }
        r[i] = uint16_t(a);
        d[i] = uint16_t(b);
      }
  }
  return {ref, dist};
}

}  // namespace exactvq::ciede_testing
