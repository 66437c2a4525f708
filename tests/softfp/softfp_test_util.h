// Shared by the softfp host tests: the path counters the header reports into,
// bit comparison with native binary64, counting comparisons and reached paths,
// and the random operands.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <random>
#include <string>
#include <utility>
#include <vector>

// Every translation unit of the test binary counts into the same array.
inline uint64_t softfp_path_hits[64];
#define SOFTFP_PATH(id) (++softfp_path_hits[id])
#include "metrics/ssim/softfp_term.h"
#include "metrics/ssim/taps.h"
#include "metrics/ssim/term.h"

namespace exactvq::softfp_test {

inline uint64_t bits_of(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

inline double double_of(uint64_t b) {
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

inline softfp soft(double v) { return softfp_from_bits(bits_of(v)); }
inline double native(softfp v) { return double_of(softfp_to_bits(v)); }

// Random operand pairs per operation, all depths together: EXACTVQ_SOFTFP_PAIRS
// overrides the CI default (10^7, a few seconds on one core).
inline uint64_t random_pair_count() {
  const char* env = std::getenv("EXACTVQ_SOFTFP_PAIRS");
  return env ? std::strtoull(env, nullptr, 10) : 10'000'000;
}

// The seed: EXACTVQ_SOFTFP_SEED replays a failure (every failure prints its seed).
inline uint64_t seed() {
  const char* env = std::getenv("EXACTVQ_SOFTFP_SEED");
  return env ? std::strtoull(env, nullptr, 10) : 20261130;
}

// A random binary64 significand (bit 52 set).
inline uint64_t random_significand(std::mt19937_64& rng) { return (rng() >> 11) | SOFTFP_HIDDEN; }

// Counts comparisons and reports the first few differences with the seed.
class Compare {
 public:
  explicit Compare(std::string what) : what_(std::move(what)) {}
  ~Compare() {
    EXPECT_EQ(failed_, 0u) << what_ << ": " << failed_ << " of " << compared_ << " differ (seed "
                           << seed() << ")";
    std::printf("[ softfp   ] %s: %llu compared bit for bit\n", what_.c_str(),
                static_cast<unsigned long long>(compared_));
  }
  template <typename Describe>
  void check(bool same, Describe&& describe) {
    ++compared_;
    if (!same && failed_++ < 10) ADD_FAILURE() << what_ << ": " << describe();
  }
  uint64_t compared() const { return compared_; }

 private:
  std::string what_;
  uint64_t compared_ = 0, failed_ = 0;
};

// The moments of the windows centred in [x0, x1) x [y0, y1) of a w x h plane
// pair, straight from the two passes of spec/ssim.md (taps outside the plane
// left out), row by row. sample(p, x, y) reads plane p: 0 reference, 1 distorted.
template <class Sample>
std::vector<ssim::Moments> brute_force_moments(int w, int h, int x0, int x1, int y0, int y1,
                                               Sample sample) {
  struct H {
    uint64_t m, n, xx, xy, yy;
  };
  const int r0 = std::max(0, y0 - ssim::kRadius), r1 = std::min(h, y1 + ssim::kRadius);
  const size_t cols = size_t(x1 - x0);
  std::vector<H> hor(size_t(std::max(0, r1 - r0)) * cols);
  for (int y = r0; y < r1; ++y)
    for (int x = x0; x < x1; ++x) {
      H s{};
      for (int k = 0; k < ssim::kTaps; ++k) {
        const int xi = x - ssim::kRadius + k;
        if (xi < 0 || xi >= w) continue;
        const uint64_t g = ssim::kTap[size_t(k)], a = sample(0, xi, y), b = sample(1, xi, y);
        s.m += g * a;
        s.n += g * b;
        s.xx += g * a * a;
        s.xy += g * a * b;
        s.yy += g * b * b;
      }
      hor[size_t(y - r0) * cols + size_t(x - x0)] = s;
    }
  std::vector<ssim::Moments> out;
  out.reserve(size_t(std::max(0, y1 - y0)) * cols);
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      ssim::Moments m{};
      for (int k = 0; k < ssim::kTaps; ++k) {
        const int yi = y - ssim::kRadius + k;
        if (yi < 0 || yi >= h) continue;
        const uint64_t g = ssim::kTap[size_t(k)];
        const H& s = hor[size_t(yi - r0) * cols + size_t(x - x0)];
        m.mux += g * s.m;
        m.muy += g * s.n;
        m.x2 += g * s.xx;
        m.xy += g * s.xy;
        m.y2 += g * s.yy;
      }
      m.w = uint64_t{ssim::kept_weight(x, w)} * ssim::kept_weight(y, h);
      out.push_back(m);
    }
  return out;
}

inline const char* path_name(int id) {
  static const char* const kNames[SOFTFP_PATH_COUNT] = {"add zero operand",
                                                        "add same sign",
                                                        "sub near (gap 0/1)",
                                                        "sub far (gap >= 2)",
                                                        "sub to zero",
                                                        "add all sticky (gap >= 64)",
                                                        "mul zero",
                                                        "mul power of two",
                                                        "mul general",
                                                        "div zero",
                                                        "div general",
                                                        "div digit corrected down",
                                                        "div digit corrected up",
                                                        "div digit 0",
                                                        "div digit radix-1",
                                                        "round up",
                                                        "round tie",
                                                        "round carry",
                                                        "term integer shortcut",
                                                        "term general",
                                                        "fixed shift left",
                                                        "fixed rounded",
                                                        "fixed to zero",
                                                        "add integer",
                                                        "term power-of-two weight",
                                                        "term fast",
                                                        "fast A/C/D round up",
                                                        "fast A/C/D round tie",
                                                        "fast A/C/D round carry",
                                                        "fast B round up",
                                                        "fast B round tie",
                                                        "fast B round carry",
                                                        "fast mul round up",
                                                        "fast mul round tie",
                                                        "fast mul round carry",
                                                        "fast div round up",
                                                        "fast div round tie",
                                                        "fast div carry",
                                                        "fast div digit 1 corrected",
                                                        "fast div digit 2 corrected",
                                                        "fast div dividend doubled",
                                                        "term fast, truncated window",
                                                        "fma zero product",
                                                        "fma zero addend",
                                                        "fma same signs",
                                                        "fma opposite signs",
                                                        "fma cancels to zero"};
  return id >= 0 && id < SOFTFP_PATH_COUNT ? kNames[id] : "?";
}

// Fails unless each path was reached since construction.
class PathsReached {
 public:
  PathsReached() { std::memcpy(start_, softfp_path_hits, sizeof start_); }
  void expect(std::initializer_list<int> ids) const {
    for (int id : ids) {
      const uint64_t hits = softfp_path_hits[id] - start_[id];
      EXPECT_GT(hits, 0u) << "path not reached: " << path_name(id);
      std::printf("[ softfp   ] path %-30s %llu\n", path_name(id),
                  static_cast<unsigned long long>(hits));
    }
  }

 private:
  uint64_t start_[64];
};

}  // namespace exactvq::softfp_test
