// Where a GPU engine keeps one chunk's term planes (every scale, every wanted
// term, every frame) and how an on-device raster-order sum of arrays
// (backends/cuda/raster_sum.h) reads them in one launch and hands back each
// frame's sums, which means() turns into the frame's means. Host arithmetic
// only, so the CPU tests check it (tests/metrics/float_ssim/device_term_layout_test.cpp).
//
// A scale's planes all hold ow x oh binary64 terms in raster order, so one
// stride apart they are "frames" of one array of the sum's layout: scale sc's
// region holds plane (frame i, term q) at base[sc] + (i * terms + q) * stride[sc],
// and the sum's layout has frames * terms groups of one array a scale (arrays
// of different lengths, summed side by side). Sum g * scales + sc is then
// frame i's term q of scale sc for g = i * terms + q: frame after frame,
// terms * scales sums each.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/raster_sum_layout.h"
#include "metrics/float_ssim/reference.h"

namespace exactvq::float_ssim {

// The terms whose raster-order sums step 5 of "SSIM of one scale" forms.
enum class Term { kLcs, kL, kC, kS };

class DeviceTermLayout {
 public:
  static constexpr size_t kNone = ~size_t{0};
  // Each plane starts at a multiple of this many bytes.
  static constexpr size_t kAlign = 256;

  // One scale's positions, ow x oh (each at least 1).
  struct Positions {
    int ow = 0, oh = 0;
  };
  // Frame 0's term planes of a scale (byte offsets in the chunk's buffer,
  // kNone where not wanted) and the bytes from a frame's plane to the next
  // frame's.
  struct ScalePlanes {
    size_t lcs = kNone, l = kNone, c = kNone, s = kNone;
    size_t frame_stride = 0;
  };
  // The raster sum's arrays of a chunk, in doubles: group g's array a at
  // offset + g * stride, count terms.
  struct SumArray {
    int64_t offset = 0, stride = 0, count = 0;
  };
  struct SumLayout {
    int groups = 0, arrays = 0;
    std::array<SumArray, kScales> array{};
  };

  // `ssim_mean`: the lcs term; `lcs_means`: the l, c and s terms (at least one
  // of the two); up to kScales scales; chunks of at most `chunk_frames` frames.
  DeviceTermLayout(const std::vector<Positions>& scales, bool ssim_mean, bool lcs_means,
                   int chunk_frames);

  int scales() const { return int(scales_.size()); }
  int terms() const { return int(terms_.size()); }
  // A chunk's buffer (chunk_frames frames).
  size_t chunk_bytes() const { return chunk_bytes_; }
  ScalePlanes planes(int scale) const;
  // The sums of a chunk of `frames` frames (1 .. chunk_frames).
  SumLayout sum_layout(int frames) const;
  // The sums one frame has, and the frame's means of each scale from them (the
  // terms not wanted sum to 0).
  size_t sums_per_frame() const { return terms_.size() * scales_.size(); }
  ScaleMeans means(const double* frame_sums) const;

 private:
  struct Scale {
    Positions positions;
    size_t base = 0, stride = 0;  // bytes
  };
  std::vector<Scale> scales_;
  std::vector<Term> terms_;  // wanted, in this order in a frame's planes and sums
  int chunk_frames_ = 1;
  size_t chunk_bytes_ = 0;
};

// A chunk's sums as the devices' raster-order sum takes them (core/raster_sum_layout.h):
// one array a scale and term, `terms` the device's term buffer.
template <typename Terms>
RasterSumLayoutOf<Terms> raster_layout(const DeviceTermLayout::SumLayout& sums, Terms terms) {
  static_assert(kScales <= kRasterMaxArrays, "one raster-sum array a scale");
  RasterSumLayoutOf<Terms> layout;
  layout.terms = terms;
  layout.frames = sums.groups;
  layout.arrays = sums.arrays;
  for (int a = 0; a < sums.arrays; ++a) {
    const DeviceTermLayout::SumArray& s = sums.array[size_t(a)];
    layout.array[a] = {s.offset, s.stride, s.count};
  }
  return layout;
}

}  // namespace exactvq::float_ssim
