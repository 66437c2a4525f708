// SpEED's definition in code (libvmaf's speed.c, plain C): the score of one
// pair of float planes, and the conversion of a picture's plane to floats.
// docs/spec/speed.md states it step by step. Every binary32 and binary64
// operation is done one at a time in libvmaf's order and types; log2 and exp
// through exactvq::libm, square roots with std::sqrt (correctly rounded).
#pragma once

#include <cstddef>
#include <vector>

#include "core/picture.h"
#include "metrics/speed/covariance.h"
#include "metrics/speed/options.h"
#include "metrics/speed/plane_kernels.h"

namespace exactvq::speed {

inline constexpr int kBlockSize = 5;  // the side of a block of coefficients
inline constexpr int kScales = 4;     // the picture is scored at 1/16 of its size
inline constexpr int kBlockElements = kBlockSize * kBlockSize;

// The sizes libvmaf derives from a plane of width x height and the prescale.
struct Dimensions {
  int original_width = 0, original_height = 0;
  int scaled_width = 0, scaled_height = 0;
  int alloc_width = 0, alloc_height = 0;          // the float planes' size
  int operating_width = 0, operating_height = 0;  // scaled >> 4
  int truncated_width = 0, truncated_height = 0;  // down to multiples of kBlockSize
  int blocks_horizontal = 0, blocks_vertical = 0, blocks = 0;
  int submatrix_width = 0, submatrix_height = 0;  // truncated - kBlockSize + 1
  // libvmaf has no value without a whole block (it logs "image too small").
  bool scoreable() const { return truncated_width > 0 && truncated_height > 0; }
};

Dimensions dimensions_of(int width, int height, double prescale);

// Throws InputError naming the feature and the plane's size where SpEED has no
// value for it: no whole block after the downscale, or (speed_temporal) a
// prescale whose picture outgrows libvmaf's frame buffers, or a prescale within
// 1e-3 of 1 whose size outgrows the picture (libvmaf reads what it never wrote).
void check_scoreable(const SpeedOptions& o, int width, int height);

// Throws InputError unless libvmaf copies samples of this depth as samples
// (8, 10, 12, 16 bits; it reads others' bytes as 8-bit samples).
void check_bit_depth(const SpeedOptions& o, int bitdepth);

// A plane's top-left width x height samples as libvmaf's picture_copy makes
// them: s - 128 at 8 bits, s / 2^(bitdepth - 8) - 128 above, in binary32.
void load_plane(const PlaneView& p, int width, int height, int bitdepth, float* dst, size_t stride);

// ---- What the device engines (device_plan.h) take from the definition ----

// A Gaussian filter's taps (vif_tools.c's, at most 128).
struct FilterTaps {
  int count = 0;
  float taps[128] = {};
};
FilterTaps antialias_taps(const SpeedOptions& o);   // the anti-alias filter (scale 1)
FilterTaps local_mean_taps(const SpeedOptions& o);  // the local mean's (scale 4)

double log2_two_pi_e();  // log2(2 pi e), added to each term of a block's entropy
// The entropy under which a block shows no visible difference (Scorer::score).
float base_entropy(const SpeedOptions& o);

// What the blocks' step needs of the covariance matrix: its eigenvalues, and
// where it can be inverted, Q^T and R of its QR decomposition (row-major).
// singular: an eigenvalue or a diagonal entry of R under 1e-6 (every block's
// solution is then 0).
struct BlockSolver {
  float eigenvalues[kBlockElements] = {};
  float qt[kBlockElements * kBlockElements] = {};
  float r[kBlockElements * kBlockElements] = {};
  bool singular = false;
};
// From the covariance sums (covariance.h) of windows of sub_w x sub_h samples.
void solve_for_blocks(const double* pair_sums, int sub_w, int sub_h, BlockSolver& out);

// The prescale's reading of one axis (vif_scale_frame_s), for the device
// engines: for destination index d, the `taps` source indices index[d * taps +
// t] and weights weight[d * taps + t] the method reads there, made by the
// reference's own expressions (they depend on d alone). nearest: one index;
// bilinear: the two indices and the fraction (weight[0]); bicubic: 4, lanczos4:
// 9 indices and weights, in the reference's order.
struct ScaleAxis {
  int taps = 0;
  std::vector<int> index;
  std::vector<float> weight;
};
ScaleAxis scale_axis(ScaleMethod method, int src, int dst);

// One pair's score and whether either covariance matrix could not be inverted.
struct PairScore {
  float score = 0;
  bool singular = false;
};

// The routines Scorer::score_planes reads a picture's plane with (the
// references, or their SIMD twins).
struct PlaneLoads {
  void (*load)(const PlaneView&, int, int, int, float*, size_t) = load_plane;
  FilterSampleColumns columns = filter_sample_columns;
};

// SpEED of pairs of planes of one size under one set of options, with the
// buffers it works in (make one a thread).
class Scorer {
 public:
  // `sums`, `columns`, `window_sums`: the covariance sums', the filters'
  // vertical pass's and the window means' sums' routines (the references, or
  // their SIMD twins).
  Scorer(int width, int height, const SpeedOptions& o,
         CovarianceSums sums = covariance_sums_reference, FilterColumns columns = filter_columns,
         WindowSums window_sums = window_sums_reference);

  // The planes to fill (stride() floats a row, alloc_height rows; the first
  // width x height samples are the picture); score() overwrites them.
  float* ref() {
    make_planes();
    return ref_.data();
  }
  float* dis() {
    make_planes();
    return dis_.data();
  }
  size_t stride() const { return stride_; }
  const Dimensions& dimensions() const { return dim_; }

  PairScore score();

  // score() of the planes load_plane makes of `ref` and `dis` (width x height
  // samples of bitdepth bits): where nothing is prescaled the anti-alias
  // filter reads the samples themselves, with the same bits.
  PairScore score_planes(const PlaneView& ref, const PlaneView& dis, int bitdepth,
                         PlaneLoads loads = {});

 private:
  bool prescales() const;  // whether the prescale resamples the plane
  // The float planes, made (zeroed) at their first use: score_planes without
  // a prescale never needs them.
  void make_planes();
  void filter_and_downscale(float* frame);
  void filter_and_downscale_samples(const PlaneView& p, int bitdepth, FilterSampleColumns columns);
  void subtract_local_mean();
  PairScore pool(bool ref_ok, bool dis_ok);
  bool estimate(std::vector<float>& entropies, std::vector<float>& variances);

  SpeedOptions options_;
  Dimensions dim_;
  CovarianceSums covariance_sums_;
  FilterColumns filter_columns_;
  WindowSums window_sums_;
  size_t stride_;
  int antialias_width_, filter_width_;
  float antialias_[128], filter_[128];
  std::vector<int> bilinear_x1_, bilinear_x2_;
  std::vector<float> bilinear_dx_;
  std::vector<float> ref_, dis_, scaled_copy_, row_;
  std::vector<float> down_, blurred_;  // the decimated plane and its local mean
  std::vector<float> ref_entropies_, ref_variances_, dis_entropies_, dis_variances_;
  std::vector<float> independent_, solution_, covariance_, eigenvalues_, means_;
  std::vector<float> scratch_;
  std::vector<double> pair_sums_;
};

}  // namespace exactvq::speed
