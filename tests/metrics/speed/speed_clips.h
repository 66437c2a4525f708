// Seeded random clips for SpEED's tests: smooth waves of random phase and
// frequency with noise on every plane, moving from frame to frame, so that
// the covariance matrices are regular and the temporal differences are not
// zero; the distorted clip adds noise and a small shift of level.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include "cli/cli_test_util.h"

namespace exactvq::speed::testing {

inline std::vector<clitest::Frame> random_frames(const VideoFormat& f, int count, uint32_t seed,
                                                 bool distorted = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> phase(0.0, 6.283), freq(0.05, 0.4);
  std::normal_distribution<double> noise(0.0, distorted ? 6.0 : 3.0);
  const double scale = double(1 << (f.bitdepth - 8));
  const double fx = freq(rng), fy = freq(rng), p0 = phase(rng);
  std::vector<clitest::Frame> frames(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i)
    for (int p = 0; p < f.plane_count(); ++p) {
      const int w = f.plane_width(p), h = f.plane_height(p);
      auto& plane = frames[size_t(i)][size_t(p)];
      plane.resize(size_t(w) * size_t(h));
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          double v = 128 + 50 * std::sin(fx * x + p0 + 0.4 * i + p) +
                     30 * std::cos(fy * y - 0.3 * i + 2 * p) + noise(rng) + (distorted ? 3 : 0);
          v = std::clamp(v * scale, 0.0, double(f.max_sample()));
          plane[size_t(y) * size_t(w) + size_t(x)] = uint16_t(v);
        }
    }
  return frames;
}

}  // namespace exactvq::speed::testing
