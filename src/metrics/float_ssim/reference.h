// The scalar reference of docs/spec/float_ssim.md: libvmaf 3.2.0's float_ssim
// and float_ms_ssim (its iqa SSIM in binary32 with binary64 per-pixel terms),
// the readable definition any SIMD or GPU twin is tested against. The row
// stages sit behind FloatSsimStages so that twins can replace them one by one.
#pragma once

#include <array>
#include <memory>
#include <new>
#include <utility>
#include <span>
#include <vector>

#include "core/picture.h"
#include "metrics/float_ssim/options.h"
#include "metrics/float_ssim/input_checks.h"
#include "metrics/float_ssim/scores.h"

namespace exactvq::float_ssim {

// The separable window's taps: iqa's 11-tap Gaussian (sigma 1.5), binary32.
inline constexpr int kWindow = 11;
extern const std::array<float, kWindow> kWindowTaps;

// MS-SSIM's low-pass filter before each halving: iqa's 9x9 table (a 9/7
// biorthogonal wavelet's), binary32, applied as a 2-D kernel.
inline constexpr int kLowPass = 9;
using LowPassTable = std::array<std::array<float, kLowPass>, kLowPass>;
const LowPassTable& low_pass_table();

// iqa's constants C1, C2, C3: K1 = 0.01, K2 = 0.03, L = 255, all in binary32.
struct SsimConstants {
  float c1, c2, c3;
};
SsimConstants ssim_constants();

// An allocator whose value-initialisation leaves floats unset: planes are
// written in full before they are read, and growing one costs no zero fill.
template <typename T>
struct UninitializedAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <typename U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

// A plane of binary32 samples, rows of `width` (libvmaf's buffers, stride =
// width). A new or grown plane's samples are unset until written.
struct FloatPlane {
  int width = 0, height = 0;
  std::vector<float, UninitializedAllocator<float>> samples;
  FloatPlane() = default;
  FloatPlane(int w, int h)
      : width(w), height(h), samples(size_t(w > 0 ? w : 0) * size_t(h > 0 ? h : 0)) {}
  float* row(int y) { return samples.data() + size_t(y) * size_t(width); }
  const float* row(int y) const { return samples.data() + size_t(y) * size_t(width); }
};

// A luma plane as libvmaf's picture_copy gives it. Throws InputError on a bit
// depth converts_bit_depth refuses.
FloatPlane load_plane(const PlaneView& p, int bitdepth);
// The same into `out`, reusing its storage.
void load_plane_into(const PlaneView& p, int bitdepth, FloatPlane& out);

// A 2-D kernel for decimation (iqa's _iqa_filter_pixel): `size` x `size`
// taps, row-major, centred at size / 2 (an even size reaches one more to the
// left and above than to the right and below).
struct DecimationKernel {
  int size = 0;
  std::span<const float> taps;  // size * size
};

// The inputs of one row of per-pixel terms: the windowed means and the
// windowed squares and product (before the means' squares are taken off).
struct TermRow {
  const float* mu_ref;
  const float* mu_cmp;
  const float* ref_sq;  // window of ref * ref
  const float* cmp_sq;  // window of cmp * cmp
  const float* both;    // window of ref * cmp
};

// The row stages: the reference's (kReferenceStages) or twins of them that
// give the same bits.
struct FloatSsimStages {
  // out[x] = (float) sum_k double(in[x + k] * taps[k]) for x < out_width (k = 0..10).
  void (*window_horizontal)(const float* in, int out_width, float* out);
  // out[x] = (float) sum_k double(rows[k][x] * taps[k]) (k = 0..10).
  void (*window_vertical)(std::span<const float* const> rows, int width, float* out);
  // ref*ref, cmp*cmp and ref*cmp in binary32.
  void (*products)(const float* ref, const float* cmp, int n, float* ref_sq, float* cmp_sq,
                   float* both);
  // The per-pixel terms l, c and s (binary64) of one row.
  void (*terms)(const TermRow& in, int n, double* l, double* c, double* s);
  // One output row of a decimation: out[x] = the kernel at (x * factor, y * factor),
  // edges mirrored. `out` may alias `img` (float_ssim decimates in place): each
  // sample is written after its reads.
  void (*decimate_row)(const float* img, int width, int height, int y, int factor,
                       const DecimationKernel& k, int out_width, float* out);
};
extern const FloatSsimStages kReferenceStages;

// iqa's SSIM of two planes of one size (no downscaling): the window runs where
// it fits, (width - 10) x (height - 10) positions. With none (a side under 11)
// the means are 0.0 divided by that product of two sides: +0, -0 or, where a
// side is exactly 10, NaN.
SsimMeans ssim_means(const FloatPlane& ref, const FloatPlane& cmp, const FloatSsimStages& stages);

// The steps before the scores, for engines (engine.h): the means of
// float_ssim's one scale (the planes converted and, for `factor` > 1,
// box-filtered by it), and of float_ms_ssim's five scales.
SsimMeans float_ssim_means(const PlaneView& ref, const PlaneView& dist, int bitdepth, int factor,
                           const FloatSsimStages& stages);
ScaleMeans float_ms_ssim_means(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                               const FloatSsimStages& stages);

SsimScores float_ssim_reference(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                                const SsimOptions& o);
SsimScores float_ssim_with_stages(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                                  const SsimOptions& o, const FloatSsimStages& stages);
// Throws InputError where the product of the scales is +inf (libvmaf fails the frame).
MsSsimScores float_ms_ssim_reference(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                                     const MsSsimOptions& o);
MsSsimScores float_ms_ssim_with_stages(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                                       const MsSsimOptions& o, const FloatSsimStages& stages);

}  // namespace exactvq::float_ssim
