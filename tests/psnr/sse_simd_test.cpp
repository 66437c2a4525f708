// checkasm-style twin test: psnr::sse (Highway) against psnr::sse_reference on
// every SIMD target this machine runs, forced one by one; seeded random and
// extreme planes at 8..16 bits, widths 1..70, 1920 and 3840, strides wider than
// the row and unaligned starts. A failure prints the seed and the case.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/simd_targets.h"
#include "metrics/psnr/sse.h"

namespace exactvq {
namespace {

enum class Fill { kRandom, kZeroVsMax, kMaxVsZero, kEqual, kNearMax };

// A plane inside a larger buffer: `pad` samples after each row, and the first
// sample `offset` samples into the buffer, so loads start unaligned.
struct PaddedPlane {
  std::vector<uint8_t> bytes;
  PlaneView view;

  PaddedPlane(int w, int h, int bits, int pad, int offset) {
    const int bps = bits > 8 ? 2 : 1;
    const ptrdiff_t stride = ptrdiff_t(w + pad) * bps;
    bytes.assign(size_t(stride * h + offset * bps), 0);
    view = {bytes.data() + offset * bps, stride, w, h, bps};
  }
  void set(int x, int y, uint32_t v) {
    uint8_t* p = const_cast<uint8_t*>(view.data) + y * view.stride;
    if (view.bytes_per_sample == 2) reinterpret_cast<uint16_t*>(p)[x] = uint16_t(v);
    else p[x] = uint8_t(v);
  }
  // Fills the padding with `v`, which the sum must never read.
  void poison(uint32_t v) {
    for (int y = 0; y < view.height; ++y)
      for (int x = view.width; x < int(view.stride / view.bytes_per_sample); ++x) set(x, y, v);
  }
};

struct Case {
  int width, height, bits, pad, offset;
  Fill fill;
};

void fill_pair(const Case& c, PaddedPlane& a, PaddedPlane& b, std::mt19937_64& rng) {
  const uint32_t max = (1u << c.bits) - 1;
  for (int y = 0; y < c.height; ++y)
    for (int x = 0; x < c.width; ++x) {
      uint32_t u = 0, v = 0;
      switch (c.fill) {
        case Fill::kRandom: u = uint32_t(rng() % (max + 1)); v = uint32_t(rng() % (max + 1)); break;
        case Fill::kZeroVsMax: u = 0; v = max; break;
        case Fill::kMaxVsZero: u = max; v = 0; break;
        case Fill::kEqual: u = v = uint32_t(rng() % (max + 1)); break;
        case Fill::kNearMax: u = max - uint32_t(rng() % 3); v = uint32_t(rng() % 3); break;
      }
      a.set(x, y, u);
      b.set(x, y, v);
    }
  a.poison(max);
  b.poison(0);
}

std::vector<Case> cases(std::mt19937_64& rng) {
  std::vector<Case> all;
  for (int bits = 8; bits <= 16; ++bits) {
    for (int w = 1; w <= 70; ++w)
      all.push_back({w, 1 + int(rng() % 4), bits, int(rng() % 5), int(rng() % 3), Fill::kRandom});
    for (const Fill f : {Fill::kZeroVsMax, Fill::kMaxVsZero, Fill::kEqual, Fill::kNearMax})
      for (const int w : {1, 15, 16, 17, 33, 64, 70})
        all.push_back({w, 3, bits, 1, 1, f});
    for (const int w : {1920, 3840})
      for (const Fill f : {Fill::kRandom, Fill::kZeroVsMax})
        all.push_back({w, 2, bits, int(rng() % 9), int(rng() % 3), f});
  }
  // Rows whose samples add up past the 8-bit chunk (16384), which then splits
  // inside a row; and the widest row at maximal error, the chunking's worst case.
  for (const Fill f : {Fill::kRandom, Fill::kZeroVsMax})
    for (const int w : {1000, 4097, 16385}) all.push_back({w, 21, 8, 3, 1, f});
  all.push_back({kMaxDimension, 1, 8, 0, 1, Fill::kZeroVsMax});
  all.push_back({kMaxDimension, 1, 16, 3, 0, Fill::kMaxVsZero});
  return all;
}

TEST(SseSimd, EqualsScalarReferenceOnEveryTarget) {
  const uint64_t seed = 0x5eed'0010;
  const auto targets = cpu::supported_targets();
  ASSERT_FALSE(targets.empty());
  int compared = 0;
  for (const cpu::SimdTarget& target : targets) {
    cpu::ForcedTarget forced(target.bits);
    std::mt19937_64 rng(seed);
    for (const Case& c : cases(rng)) {
      PaddedPlane a(c.width, c.height, c.bits, c.pad, c.offset);
      PaddedPlane b(c.width, c.height, c.bits, c.pad, c.offset);
      fill_pair(c, a, b, rng);
      const uint64_t want = psnr::sse_reference(a.view, b.view, 0, c.height);
      ASSERT_EQ(psnr::sse(a.view, b.view, 0, c.height), want)
          << target.name << " seed " << seed << ": " << c.width << "x" << c.height << " "
          << c.bits << "-bit pad " << c.pad << " offset " << c.offset << " fill " << int(c.fill);
      // A band of rows inside the plane.
      if (c.height > 1) {
        ASSERT_EQ(psnr::sse(a.view, b.view, 1, c.height),
                  psnr::sse_reference(a.view, b.view, 1, c.height))
            << target.name << " rows 1.. of " << c.width << "x" << c.height;
      }
      ++compared;
    }
  }
  std::string names;
  for (const cpu::SimdTarget& target : targets) names += " " + target.name;
  std::printf("[ simd     ] %d planes == scalar reference, targets:%s\n", compared, names.c_str());
}

}  // namespace
}  // namespace exactvq
