// SpEED's whole-plane stages with Highway twins (cpu/plane_kernels_simd.cpp):
// the vertical pass of the separable Gaussian (reference.cpp's filters call it
// a row at a time) and the conversion of a picture's plane to binary32
// (reference.h's load_plane). Each output sample is formed by the reference's
// operations in its order, so the twins, a vector of columns at a time, give
// the same bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/picture.h"

namespace exactvq::speed {

// out[j] = sum over t < taps, in order from 0 and from 0.0f, of f[t] * rows[t][j]
// (binary32, the product rounded before the sum), for j < w.
void filter_columns(const float* f, int taps, const float* const* rows, int w, float* out);

// The Highway twin of filter_columns (the best target this CPU has).
void filter_columns_simd(const float* f, int taps, const float* const* rows, int w, float* out);

using FilterColumns = void (*)(const float*, int, const float* const*, int, float*);

// filter_columns over rows of a picture's samples (8 bits, or 9 to 16 in
// uint16_t) converted as load_plane (reference.h) converts them: the same
// bits as converting the rows, then filter_columns.
void filter_sample_columns(const float* f, int taps, const uint8_t* const* rows, int bitdepth,
                           int w, float* out);

// The Highway twin of filter_sample_columns.
void filter_sample_columns_simd(const float* f, int taps, const uint8_t* const* rows, int bitdepth,
                                int w, float* out);

using FilterSampleColumns = void (*)(const float*, int, const uint8_t* const*, int, int, float*);

// The Highway twin of load_plane (reference.h).
void load_plane_simd(const PlaneView& p, int width, int height, int bitdepth, float* dst,
                     size_t stride);

}  // namespace exactvq::speed
