// Shared helpers for the output tests: a sample report and bit-level comparisons.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "output/report.h"

namespace exactvq::test {

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// Five scored frames of a run subsampled by 3 (frameNum gaps), three features, with
// non-finite values in ssim_cr and a negative zero.
inline ScoreReport sample_report() {
  ScoreReport r;
  r.version = "0.1.0";
  r.fps = 123.456;
  r.width = 1920;
  r.height = 1080;
  r.frame_numbers = {0, 3, 6, 9, 12};
  r.features = {
      {"ssim", {0.944374123456789, 0.95, 0.9999999999, 1.0, 0.5}},
      {"ssim_cb", {0.1, 1e-7, 0.333333333333333314829616256247, -0.0, 0.75}},
      {"ssim_cr", {kInf, -kInf, kNan, 0.25, 1.0 / 3.0}},
  };
  return r;
}

// A report of `frames` frames whose values are random finite doubles of every
// magnitude (random bit patterns), including subnormals and negatives.
inline ScoreReport random_report(std::mt19937_64& rng, std::size_t frames) {
  ScoreReport r;
  r.version = "0.1.0";
  r.fps = 1.0;
  r.width = 64;
  r.height = 48;
  for (std::size_t i = 0; i < frames; ++i) r.frame_numbers.push_back(static_cast<uint32_t>(2 * i));
  for (const char* name : {"ssim", "ssim_cb", "ssim_cr"}) {
    FeatureSeries f{name, {}};
    for (std::size_t i = 0; i < frames; ++i) {
      double v;
      do {
        v = std::bit_cast<double>(rng());
      } while (!std::isfinite(v));
      f.values.push_back(v);
    }
    r.features.push_back(f);
  }
  return r;
}

// Same binary64, or both NaN.
inline bool same_value(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

// What a reader gets back from printed text: the value `v` becomes after printing
// with `nf` and reading with strtod.
inline double printed(double v, const NumberFormat& nf) {
  const std::string s = format_number(v, nf);
  return std::strtod(s.c_str(), nullptr);
}

}  // namespace exactvq::test
