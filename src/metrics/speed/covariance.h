// The hot loop of SpEED's parameter estimate: the sums behind the 25 x 25
// covariance matrix of the 25 shifted windows of the decimated plane
// (reference.cpp, step 1.4.2 of docs/spec/speed.md). Each sum is a binary64
// sum in raster order over the window, so its bits depend on that order only:
// the Highway twin (cpu/covariance_simd.cpp) keeps every sum's order and runs
// the 325 sums side by side, a lane each.
#pragma once

#include <cstddef>

namespace exactvq::speed {

inline constexpr int kWindows = 25;  // the shifts (r, c), r, c = 0..4: window k = 5 r + c
inline constexpr int kCovariancePairs = kWindows * (kWindows + 1) / 2;

// sums[x (x + 1) / 2 + y] for windows y <= x: the sum over i < height, j < width
// (rows, then columns) of (double(E[r_x + i][c_x + j]) - mean_x) * (double(E[r_y +
// i][c_y + j]) - mean_y), with mean_k = double(means[k]); E's rows `stride` floats apart.
void covariance_sums_reference(const float* data, size_t stride, int width, int height,
                               const float* means, double* sums);

// The Highway twin of covariance_sums_reference (the best target this CPU has).
void covariance_sums(const float* data, size_t stride, int width, int height, const float* means,
                     double* sums);

using CovarianceSums = void (*)(const float*, size_t, int, int, const float*, double*);

// sums[k] for window k = 5 r + c: the binary32 sum, from 0.0f in raster order,
// of E[r + i][c + j] over i < height, j < width (the means' numerators).
void window_sums_reference(const float* data, size_t stride, int width, int height, float* sums);

// The Highway twin of window_sums_reference. It may read up to kWindowSumsOverread
// floats past the last sample a window holds (the plane must have them).
void window_sums(const float* data, size_t stride, int width, int height, float* sums);
inline constexpr size_t kWindowSumsOverread = 8;

using WindowSums = void (*)(const float*, size_t, int, int, float*);

}  // namespace exactvq::speed
