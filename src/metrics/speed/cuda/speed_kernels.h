// SpEED's kernels as the CUDA engine launches them: the planes' steps on one
// side (reference or distorted) of a pair of planes already on the device,
// the statistics, blocks and terms on a run of a batch's sides at once (their
// long sequential sums would leave the GPU nearly idle one side at a time).
// device_steps.h's steps, one thread an output, every operation an explicitly
// rounded intrinsic (-fmad=false), so each output has the CPU reference's
// bits. The binary64 steps (covariance sums, blocks, terms) come native (fp64)
// or on softfp (emulate), the same bits either way.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace exactvq::speed::cuda {

// One side's planes for its first steps.
struct SpeedSide {
  float* plane = nullptr;     // width x height, where the prescale resamples
  float* down = nullptr;      // operating_width x operating_height
  float* residual = nullptr;  // the same size (in its SpeedSides storage)
};

// The sizes and constants of a plan (device_plan.h) the kernels take.
struct SpeedShape {
  int source_width = 0, source_height = 0;  // the plane read
  // The prescale, where it resamples (resample_taps > 0): source is the plane
  // read, the axes' indices and weights (reference.h's ScaleAxis) on the device.
  float* source = nullptr;
  int resample_method = 0, resample_taps = 0;
  const int* column_index = nullptr;
  const float* column_weight = nullptr;
  const int* row_index = nullptr;
  const float* row_weight = nullptr;
  int width = 0, height = 0;  // the plane filtered
  int dw = 0, dh = 0;         // the decimated plane
  int sub_w = 0, sub_h = 0;   // a window
  int blocks_horizontal = 0, blocks = 0;
  const float* antialias = nullptr;  // device taps
  int antialias_count = 0;
  const float* local_mean = nullptr;
  int local_mean_count = 0;
  float window_count = 0;
  float sigma_nn = 0;
  uint64_t log2_2pie_bits = 0;
  // Shared memory a statistics block stages its side's windows in (0: they
  // are read in place, the plane being larger than a block's shared memory).
  int staged_bytes = 0;
};

// Sides first .. first + count - 1 of a batch, laid out as the engine keeps
// them: side i's residual at storage + i * side_floats, then its blocks'
// entropies and its blocks' variances; its 325 sums at
// sums + 325 i; its solver (Q^T, R, eigenvalues) at solvers + solver_floats i
// and whether it is singular at singular[i]. Sides 2p and 2p + 1 are pair p's
// reference and distorted sides; pair p's Words start at words +
// words_per_pair p: its terms, then (with flags) the two sides' and the
// terms' flags, a block each.
struct SpeedSides {
  float* storage = nullptr;
  size_t side_floats = 0, down = 0;
  uint64_t* sums = nullptr;
  const float* solvers = nullptr;
  size_t solver_floats = 0;
  const int* singular = nullptr;
  uint32_t* words = nullptr;
  size_t words_per_pair = 0;
  bool flags = false;
  int first = 0, count = 0;
};

// The side's residual: a [- b] (b null: none) as libvmaf's floats
// (`bitdepth`-bit samples, rows `src_w` samples long), where the prescale
// resamples first into shape.source and then side.plane; the anti-alias filter
// at every 16th sample into side.down (reading the samples in place where
// nothing is resampled); less its local mean into side.residual.
void launch_speed_residual(const void* a, const void* b, int bitdepth, int src_w,
                           const SpeedShape& shape, const SpeedSide& side, cudaStream_t stream);
// Each side's 25 window means and 325 covariance sums.
void launch_speed_statistics(const SpeedShape& shape, const SpeedSides& sides, bool emulate_fp64,
                             cudaStream_t stream);
// Each side's blocks' entropies and variances (with flags, each block's flag
// into its pair's Words).
void launch_speed_blocks(const SpeedShape& shape, const SpeedSides& sides, bool emulate_fp64,
                         cudaStream_t stream);
// Each pair's blocks' terms of the score into its Words (sides.first even,
// sides.count even: whole pairs).
void launch_speed_terms(const SpeedShape& shape, const SpeedSides& sides, float base_entropy,
                        int mode, bool emulate_fp64, cudaStream_t stream);

// A statistics block's shared memory: the 25 window means (padded), then the
// staged windows.
inline constexpr int kSpeedMeanSlots = 32;
// The shared memory a statistics block of `shape` would stage its side's
// windows in (dynamic shared memory: the caller checks it against the device's
// limit).
size_t speed_staged_bytes(const SpeedShape& shape);

// The binary64 launches of one arithmetic (speed_f64_kernels.cuh).
namespace native {
void launch_statistics(const SpeedShape& shape, const SpeedSides& sides, cudaStream_t stream);
void launch_blocks(const SpeedShape& shape, const SpeedSides& sides, cudaStream_t stream);
void launch_terms(const SpeedShape& shape, const SpeedSides& sides, float base_entropy, int mode,
                  cudaStream_t stream);
}  // namespace native
namespace emulate {
void launch_statistics(const SpeedShape& shape, const SpeedSides& sides, cudaStream_t stream);
void launch_blocks(const SpeedShape& shape, const SpeedSides& sides, cudaStream_t stream);
void launch_terms(const SpeedShape& shape, const SpeedSides& sides, float base_entropy, int mode,
                  cudaStream_t stream);
}  // namespace emulate

}  // namespace exactvq::speed::cuda
