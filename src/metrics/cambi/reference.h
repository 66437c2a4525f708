// Cambi's scalar reference: the definition of docs/spec/cambi.md in code, one
// stage a function, in libvmaf's order and types (10-bit integer images,
// integer window counts, binary32 contrast values, binary64 pooling). Images
// are stored tightly (stride = width) and shrink in place from scale to scale.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/picture.h"
#include "metrics/cambi/setup.h"
#include "metrics/cambi/window_counts.h"

namespace exactvq::cambi {

// The picture's luma as cambi's 10-bit image of the plan's size (nearest
// neighbour where the sizes differ), smoothed where the encoding had fewer
// than 10 bits: plan.width x plan.height codes into `out`.
void ten_bit_image(const PlaneView& luma, const CambiSetup& s, const ImagePlan& plan,
                   uint16_t* out);

// Each sample the rounded-down mean of its 2x2 block (pairs at the last row
// and column), from the samples before the pass.
void anti_dither(uint16_t* image, int w, int h);

// The count of flat samples over a 7x7 window above which a sample is masked in.
int mask_threshold(int w, int h);

// 1 where a sample lies in a flat region: more than mask_threshold(w, h) of
// the 7x7 window's samples (inside the picture) equal their right and lower
// neighbours (an edge sample counts as equal to its missing neighbour).
void spatial_mask(const uint16_t* image, int w, int h, uint8_t* mask);

// Every other row and column (0, 2, ...) in place: (w + 1) / 2 x (h + 1) / 2.
template <typename T>
void decimate(T* image, int w, int h) {
  const int nw = (w + 1) >> 1, nh = (h + 1) >> 1;
  for (int y = 0; y < nh; ++y)
    for (int x = 0; x < nw; ++x) image[y * nw + x] = image[(2 * y) * w + 2 * x];
}

// The 3x3 mode filter, mode3 being the majority of three, else the smallest:
// each row's horizontal pass (mode3 of a sample and its two neighbours; the
// row's first and last samples as they are), then rows 1 .. h - 2 take mode3
// down the column of the three rows' passes; the first and last rows stay
// as they were.
void mode_filter(uint16_t* image, int w, int h);

// Scratch for contrast_values, kept between calls.
struct ContrastScratch {
  std::vector<uint16_t> counts;  // [code - band base][column]
};

// Each masked sample's contrast value (0 elsewhere): over the window x window
// square around it, the largest weighted ratio of the counts of its code and
// a code d + 1 above or below, for each contrast d + 1 that is visible there.
// The window's counts move down the rows by `slide` (window_counts.h).
void contrast_values(const uint16_t* image, const uint8_t* mask, int w, int h, int window,
                     const CambiSetup& s, float* values, ContrastScratch& scratch,
                     SlideCounts slide = slide_counts_reference);

// The mean of the largest clamp(topk * n, 1, n) values, selected by libvmaf's
// quick select (which reorders `values`) and summed in binary64 in the order
// it leaves them.
double pool_topk(std::span<float> values, double topk);

// What sees each scale's contrast values before pooling reorders them
// (heatmaps.h): the scale, the values, their width and height.
using ScaleValuesSink = std::function<void(int scale, std::span<const float> values, int w, int h)>;

// The five scales' pooled contrast values of one picture (the engines pass
// the SIMD twin of the window counts), each scale's values shown to `sink`
// first where there is one.
std::array<double, kScales> scale_scores(const PlaneView& luma, const CambiSetup& s,
                                         const ImagePlan& plan,
                                         SlideCounts slide = slide_counts_reference,
                                         const ScaleValuesSink& sink = {});

// The picture's score: the scales weighted 16, 8, 4, 2, 1, over the window's area.
double combine_scales(const std::array<double, kScales>& scales, int window);

}  // namespace exactvq::cambi
