// The host's half of SpEED's GPU engines (cuda/, opencl/), the same for both:
// what is set up once for a plane size and options (the Gaussian taps, the
// sizes, the constants the kernels take), the step between the device's
// covariance sums and its per-block work (the 25 x 25 matrix's eigenvalues and
// QR decomposition, serial and tiny: reference.h's solve_for_blocks), and the
// pair's score from the device's per-block terms (a binary32 sum in block
// order). docs/spec/speed.md, "Engines", says what runs where.
#pragma once

#include <cstdint>

#include "metrics/speed/options.h"
#include "metrics/speed/reference.h"

namespace exactvq::speed {

struct DevicePlan {
  // The plane read (speed_chroma: chroma_width x chroma_height), and the plane
  // filtered: the same, or its prescaled size where the prescale resamples it.
  int source_width = 0, source_height = 0;
  int width = 0, height = 0;
  bool resample = false;
  int method = 0;           // device_steps.h's SPEED_NEAREST ..
  ScaleAxis columns, rows;  // the prescale's reading of each axis, where it resamples
  Dimensions dim;
  FilterTaps antialias, local_mean;
  float window_count = 0;  // float(sub_w * sub_h), a window mean's divisor
  float sigma_nn = 0;
  float base_entropy = 0;
  uint64_t log2_2pie_bits = 0;  // log2(2 pi e) as a binary64 bit pattern
  int weight_var_mode = 0;
};

// The plan for width x height planes; dimensions only (no taps) where SpEED
// cannot score that size (speed_temporal's engine exists before its frames do).
DevicePlan make_device_plan(int width, int height, const SpeedOptions& o);

// The pair's score from each block's term (0 for a block without a visible
// difference) and each side's singularity: 0 where one side alone is singular.
PairScore pair_score(const float* terms, int blocks, bool ref_singular, bool dis_singular);

}  // namespace exactvq::speed
