// The GPU engines' term layout (device_term_layout.h), on the host: every term
// plane of every frame of a chunk lies inside the chunk's buffer, aligned, apart
// from every other; and terms written where planes() says, summed as the raster
// sum reads sum_layout() (each group's array from +0 in order, as
// launch_raster_sums defines it) and turned into means by means(), give each
// frame's means of its own planes: float_ssim's one scale and MS-SSIM's five
// (arrays of different lengths in one layout, the smallest of 1 to 6 terms),
// every choice of terms, chunks of 1, 2 and 4 frames and every shorter chunk.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <random>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "metrics/float_ssim/device_term_layout.h"
#include "metrics/float_ssim/reference.h"
#include "metrics/ssim/raster_sum.h"

namespace exactvq::float_ssim {
namespace {

using Positions = DeviceTermLayout::Positions;

// The positions of each scale the engines score for a picture (kWindow - 1 fewer
// than the (downscaled) plane's samples a side).
std::vector<Positions> scale_positions(int width, int height, bool multiscale, int factor) {
  if (!multiscale && factor > 1) {
    width = decimated_size(width, factor);
    height = decimated_size(height, factor);
  }
  std::vector<Positions> out;
  for (int i = 0; i < (multiscale ? kScales : 1); ++i) {
    if (i > 0) {
      width = decimated_size(width, 2);
      height = decimated_size(height, 2);
    }
    out.push_back({width - (kWindow - 1), height - (kWindow - 1)});
  }
  return out;
}

struct Shape {
  int width, height;
  bool multiscale;
  int factor;
};

// Small shapes (filled and summed) and large ones (placement only).
const Shape kSmall[] = {{11, 11, false, 1},  {12, 11, false, 1},   {13, 12, false, 1},
                        {37, 29, false, 1},  {400, 390, false, 2}, {176, 176, true, 1},
                        {177, 176, true, 1}, {193, 181, true, 1},  {203, 181, true, 1},
                        {390, 385, true, 1}};
const Shape kLarge[] = {{1920, 1080, false, 1},
                        {1920, 1080, false, 4},
                        {1920, 1080, true, 1},
                        {3840, 2160, false, 1},
                        {3840, 2160, true, 1}};

struct Wants {
  bool ssim_mean, lcs_means;
};
const Wants kWants[] = {{true, false}, {false, true}, {true, true}};

std::string name_of(const Shape& s, const Wants& w, int chunk) {
  return fmt::format("{}x{} {} factor {}, lcs term {}, l/c/s terms {}, chunks of {}", s.width,
                     s.height, s.multiscale ? "float_ms_ssim" : "float_ssim", s.factor, w.ssim_mean,
                     w.lcs_means, chunk);
}

size_t positions_of(const Positions& p) { return size_t(p.ow) * size_t(p.oh); }

// Frame `frame`'s planes of each scale (kNone where not wanted): [scale][lcs, l, c, s].
std::vector<std::array<size_t, 4>> plane_offsets(const DeviceTermLayout& layout, int frame) {
  std::vector<std::array<size_t, 4>> out;
  for (int sc = 0; sc < layout.scales(); ++sc) {
    const DeviceTermLayout::ScalePlanes p = layout.planes(sc);
    std::array<size_t, 4> o{p.lcs, p.l, p.c, p.s};
    for (size_t& v : o)
      if (v != DeviceTermLayout::kNone) v += size_t(frame) * p.frame_stride;
    out.push_back(o);
  }
  return out;
}

void expect_planes_apart(const DeviceTermLayout& layout, const std::vector<Positions>& scales,
                         int chunk, const std::string& what) {
  std::vector<std::pair<size_t, size_t>> ranges;  // [begin, end) in bytes
  for (int i = 0; i < chunk; ++i) {
    const auto offsets = plane_offsets(layout, i);
    for (size_t sc = 0; sc < scales.size(); ++sc)
      for (const size_t at : offsets[sc]) {
        if (at == DeviceTermLayout::kNone) continue;
        EXPECT_EQ(at % DeviceTermLayout::kAlign, 0u) << what;
        ranges.push_back({at, at + positions_of(scales[sc]) * sizeof(double)});
      }
  }
  EXPECT_EQ(ranges.size(), size_t(chunk) * scales.size() * size_t(layout.terms())) << what;
  std::sort(ranges.begin(), ranges.end());
  for (size_t k = 0; k < ranges.size(); ++k) {
    EXPECT_LE(ranges[k].second, layout.chunk_bytes()) << what;
    if (k > 0) {
      EXPECT_LE(ranges[k - 1].second, ranges[k].first) << what << ": planes overlap";
    }
  }
}

// Writes every frame's planes of a chunk of `frames` with seeded terms, sums
// them the way launch_raster_sums reads the layout, and checks each frame's
// means against those of its own planes' sequential sums.
void expect_sums_reach_their_means(const DeviceTermLayout& layout,
                                   const std::vector<Positions>& scales, int frames,
                                   std::mt19937_64& rng, const std::string& what) {
  // NaN where nothing is written: a sum reading past its plane shows.
  std::vector<double> buffer(layout.chunk_bytes() / sizeof(double), std::nan(""));
  std::uniform_real_distribution<double> term(-0.25, 1.0);
  std::vector<ScaleMeans> want(static_cast<size_t>(frames));
  for (int i = 0; i < frames; ++i) {
    const auto offsets = plane_offsets(layout, i);
    for (size_t sc = 0; sc < scales.size(); ++sc) {
      double sums[4] = {0.0, 0.0, 0.0, 0.0};
      for (size_t t = 0; t < 4; ++t) {
        if (offsets[sc][t] == DeviceTermLayout::kNone) continue;
        double* plane = buffer.data() + offsets[sc][t] / sizeof(double);
        // Each plane its own level, so planes mixed up give other sums.
        const double level = double(1 + i * 37 + int(sc) * 5 + int(t));
        for (size_t k = 0; k < positions_of(scales[sc]); ++k) plane[k] = level + term(rng);
        sums[t] = ssim::add_in_raster_order(0.0, plane, positions_of(scales[sc]));
      }
      want[size_t(i)][sc] =
          means_of_sums(sums[0], sums[1], sums[2], sums[3], scales[sc].ow, scales[sc].oh);
    }
  }
  const DeviceTermLayout::SumLayout sums = layout.sum_layout(frames);
  ASSERT_EQ(sums.groups, frames * layout.terms()) << what;
  ASSERT_EQ(size_t(sums.arrays), scales.size()) << what;
  std::vector<double> got(size_t(sums.groups) * size_t(sums.arrays));
  for (int g = 0; g < sums.groups; ++g)
    for (int a = 0; a < sums.arrays; ++a) {
      const DeviceTermLayout::SumArray& r = sums.array[size_t(a)];
      ASSERT_EQ(size_t(r.count), positions_of(scales[size_t(a)])) << what;
      const int64_t first = r.offset + g * r.stride;
      ASSERT_GE(first, 0) << what;
      ASSERT_LE(size_t(first + r.count), buffer.size()) << what;
      got[size_t(g * sums.arrays + a)] =
          ssim::add_in_raster_order(0.0, buffer.data() + first, size_t(r.count));
    }
  ASSERT_EQ(got.size(), size_t(frames) * layout.sums_per_frame()) << what;
  for (int i = 0; i < frames; ++i) {
    const ScaleMeans means = layout.means(got.data() + size_t(i) * layout.sums_per_frame());
    EXPECT_EQ(std::memcmp(&means, &want[size_t(i)], sizeof(means)), 0)
        << what << ", frame " << i << " of " << frames;
  }
}

TEST(DeviceTermLayout, SumsOfEveryChunkGiveEachFramesMeans) {
  std::mt19937_64 rng(0x7e51a7);
  int chunks = 0;
  for (const Shape& s : kSmall) {
    const std::vector<Positions> scales =
        scale_positions(s.width, s.height, s.multiscale, s.factor);
    for (const Wants& w : kWants)
      for (const int chunk : {1, 2, 4}) {
        const DeviceTermLayout layout(scales, w.ssim_mean, w.lcs_means, chunk);
        const std::string what = name_of(s, w, chunk);
        EXPECT_EQ(layout.terms(), (w.ssim_mean ? 1 : 0) + (w.lcs_means ? 3 : 0)) << what;
        expect_planes_apart(layout, scales, chunk, what);
        for (int frames = 1; frames <= chunk; ++frames, ++chunks)
          expect_sums_reach_their_means(layout, scales, frames, rng, what);
      }
  }
  std::printf("[ layout   ] %d chunks summed to their frames' means\n", chunks);
}

TEST(DeviceTermLayout, SmallestMsSsimScalesHoldOneToSixTerms) {
  // 176: scale 4 is 11 x 11 samples (1 position); 177: 12 x 11 (2); 193 x 181: 13 x 12 (6).
  const std::pair<int, int> sizes[] = {{176, 176}, {177, 176}, {193, 176}, {193, 181}};
  const size_t want[] = {1, 2, 3, 6};
  for (size_t k = 0; k < std::size(sizes); ++k) {
    const auto scales = scale_positions(sizes[k].first, sizes[k].second, true, 1);
    ASSERT_EQ(scales.size(), size_t(kScales));
    EXPECT_EQ(positions_of(scales.back()), want[k]) << sizes[k].first << "x" << sizes[k].second;
  }
}

TEST(DeviceTermLayout, LargePicturesPlanesApart) {
  for (const Shape& s : kLarge) {
    const std::vector<Positions> scales =
        scale_positions(s.width, s.height, s.multiscale, s.factor);
    for (const Wants& w : kWants)
      for (const int chunk : {1, 2, 4}) {
        const DeviceTermLayout layout(scales, w.ssim_mean, w.lcs_means, chunk);
        expect_planes_apart(layout, scales, chunk, name_of(s, w, chunk));
        // The raster sum takes offsets and strides in doubles: exact.
        const DeviceTermLayout::SumLayout sums = layout.sum_layout(chunk);
        for (int a = 0; a < sums.arrays; ++a) {
          const DeviceTermLayout::SumArray& r = sums.array[size_t(a)];
          const int64_t last_end = r.offset + int64_t(sums.groups - 1) * r.stride + r.count;
          EXPECT_LE(size_t(last_end) * sizeof(double), layout.chunk_bytes())
              << name_of(s, w, chunk);
        }
      }
  }
}

TEST(DeviceTermLayout, RefusesMisuse) {
  const std::vector<Positions> one = {{3, 2}};
  EXPECT_THROW(DeviceTermLayout({}, true, false, 1), std::logic_error);
  EXPECT_THROW(DeviceTermLayout(one, false, false, 1), std::logic_error);
  EXPECT_THROW(DeviceTermLayout(one, true, false, 0), std::logic_error);
  EXPECT_THROW(DeviceTermLayout({{0, 5}}, true, false, 1), std::logic_error);
  EXPECT_THROW(
      DeviceTermLayout(std::vector<Positions>(size_t(kScales) + 1, Positions{1, 1}), true, true, 1),
      std::logic_error);
  const DeviceTermLayout layout(one, true, true, 2);
  EXPECT_THROW(layout.sum_layout(0), std::logic_error);
  EXPECT_THROW(layout.sum_layout(3), std::logic_error);
  EXPECT_NO_THROW(layout.sum_layout(2));
}

}  // namespace
}  // namespace exactvq::float_ssim
