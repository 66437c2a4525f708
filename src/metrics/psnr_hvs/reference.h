// psnr_hvs's scalar reference: the readable statement of the definition
// (docs/spec/psnr_hvs.md), libvmaf 3.2.0's calc_psnrhvs in its operations,
// types and order. Every engine is its twin.
#pragma once

#include <cstdint>

#include "core/picture.h"
#include "metrics/psnr_hvs/definition.h"

namespace exactvq::psnr_hvs {

inline constexpr int kCoefficients = kBlock * kBlock;

// One plane's weights, row-major by coefficient: the CSF table and the
// masking weights derived from it (masking_weight).
struct PlaneWeights {
  float csf[kCoefficients];
  float mask[kCoefficients];
};
// Plane 0 (Y), 1 (Cb) or 2 (Cr).
PlaneWeights plane_weights(int plane);

// Blocks along a side of n samples: one at 0, 7, 14, ... while it ends inside
// (start + 7 < n); none below 8.
inline int blocks_along(int n) { return n < kBlock ? 0 : (n - kBlock) / kStep + 1; }

// The 8x8 samples at (x, y) of a plane, row-major.
void load_block(const PlaneView& plane, int x, int y, int32_t block[kCoefficients]);

// The block's masking activity: the sum of its four 4x4 quarters' variances
// (each scaled 16/15) over its own variance (scaled 64/63), binary32; 0 when
// the block is flat.
float variance_ratio(const int32_t block[kCoefficients]);

// The 64 terms (err * csf)^2 of a block pair, in coefficient order: `ref` and
// `dist` are the samples, overwritten with their transforms.
void block_terms(int32_t ref[kCoefficients], int32_t dist[kCoefficients], const PlaneWeights& w,
                 float terms[kCoefficients]);

// A plane's error sum: every block's terms added to one binary32, blocks in
// raster order (rows of blocks top to bottom, each left to right), each
// block's terms in coefficient order. The order is the definition.
float plane_error_sum_reference(const PlaneView& ref, const PlaneView& dist, int plane);

// The plane's score from its sum: sum / (64 * blocks) / (2^bitdepth - 1)^2,
// each division in binary32 (NaN where no block fits: the feature refuses
// such planes first).
double plane_score(float error_sum, int width, int height, int bitdepth);

// 10 * -log10(score), libvmaf's decibels (exactvq::libm's log10): +inf for 0.
double decibels(double score);

// The whole-picture score before decibels: 0.8 * Y + 0.1 * (Cb + Cr).
inline double combined_score(double y, double cb, double cr) { return y * .8 + .1 * (cb + cr); }

}  // namespace exactvq::psnr_hvs
