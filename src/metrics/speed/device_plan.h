// The host's half of SpEED's GPU engines (cuda/, opencl/), the same for both:
// what is set up once for a plane size and options (the Gaussian taps, the
// sizes, the constants the kernels take), the step between the device's
// covariance sums and its per-block work (the 25 x 25 matrix's eigenvalues and
// QR decomposition, serial and tiny: reference.h's solve_for_blocks), and the
// pair's score from the device's per-block terms (a binary32 sum in block
// order). docs/spec/speed.md, "Engines", says what runs where.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/thread_pool.h"
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

// ---- A batch's host step (the engines score a batch's pairs in two stages) ----

// The floats of a side's solver as the device reads them: Q^T, then R
// (row-major), then the eigenvalues.
inline constexpr size_t kSolverFloats = 2 * kBlockElements * kBlockElements + kBlockElements;

// Each side's solver (solve_for_blocks) from its covariance sums as the device
// wrote them (kCovariancePairs binary64 bit patterns a side): sides 2p (the
// reference) and 2p + 1 (the distorted) of the pairs p < pairs with active[p]
// set, into solvers (kSolverFloats a side, as above) and singular (one a
// side); the other pairs' sides are left as they are. The sides are solved side
// by side on `pool` (may be null), each by the same call as alone, so the
// results do not depend on the pool.
void solve_pairs(const uint64_t* sum_bits, const bool* active, size_t pairs, const Dimensions& d,
                 ThreadPool* pool, float* solvers, bool* singular);

// The Words (32 bits) a pair's second stage leaves on the device: each block's
// term (binary32 bit patterns), then with `flags` (fp64=emulate) each block's
// flag of the reference's entropy, of the distorted's entropy and of its term
// (1: a softfp log2 had no value to give).
size_t words_per_pair(int blocks, bool flags);

// The pair's score from its Words (pair_score); with `flags`, DeviceError
// naming `feature` where a flag the scalar engine would read is set.
PairScore pair_score_of_words(const uint32_t* words, int blocks, bool flags, bool ref_singular,
                              bool dis_singular, const char* feature);

// The pair's score from each block's term (0 for a block without a visible
// difference) and each side's singularity: 0 where one side alone is singular.
PairScore pair_score(const float* terms, int blocks, bool ref_singular, bool dis_singular);

}  // namespace exactvq::speed
