// A small direct-mapped memo of lab_color() (definition.h) for the CPU engine:
// a pure function of a pixel's three samples, so a remembered colour has the
// bits a fresh one would. Pictures repeat colours (flat areas, and the distorted
// picture's unchanged pixels), and each conversion costs six pow calls.
#pragma once

#include <cstdint>
#include <vector>

#include "metrics/ciede/definition.h"
#include "metrics/ciede/reference.h"

namespace exactvq::ciede::cpu {

class LabCache {
 public:
  explicit LabCache(int bitdepth) : bitdepth_(bitdepth), keys_(kSize, kEmpty), colours_(kSize) {}

  LabColor operator()(const PixelSamples& s) {
    const uint64_t key = uint64_t{s.y} | uint64_t{s.u} << 16 | uint64_t{s.v} << 32;
    const size_t slot = size_t((key * 0x9E3779B97F4A7C15ULL) >> (64 - kBits));
    if (keys_[slot] != key) {
      keys_[slot] = key;
      colours_[slot] = lab_color(float(s.y), float(s.u), float(s.v), bitdepth_);
    }
    return colours_[slot];
  }

 private:
  static constexpr int kBits = 12;
  static constexpr size_t kSize = size_t{1} << kBits;
  static constexpr uint64_t kEmpty = ~uint64_t{0};  // no key: keys are below 2^48
  int bitdepth_;
  std::vector<uint64_t> keys_;
  std::vector<LabColor> colours_;
};

}  // namespace exactvq::ciede::cpu
