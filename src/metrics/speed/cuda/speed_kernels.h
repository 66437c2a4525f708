// SpEED's kernels as the CUDA engine launches them on one side (reference or
// distorted) of a pair of planes already on the device: device_steps.h's
// steps, one thread an output, every operation an explicitly rounded
// intrinsic (-fmad=false), so each output has the CPU reference's bits. The
// binary64 steps (covariance sums, blocks, terms) come native (fp64) or on
// softfp (emulate), the same bits either way.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace exactvq::speed::cuda {

// One side's device buffers.
struct SpeedSide {
  float* plane = nullptr;        // width x height
  float* down = nullptr;         // operating_width x operating_height
  float* residual = nullptr;     // the same size
  float* means = nullptr;        // 25
  uint64_t* sums = nullptr;      // 325 binary64 bit patterns
  float* qt = nullptr;           // 625
  float* r = nullptr;            // 625
  float* eigenvalues = nullptr;  // 25
  float* entropy = nullptr;      // a block each
  float* variance = nullptr;
  int* invalid = nullptr;  // a block each: 1 where a softfp logarithm had no value
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
};

// a [- b] (b null: none) as libvmaf's floats into side.plane (or, where the
// prescale resamples, into shape.source, then resampled into side.plane);
// `bitdepth`-bit samples, rows `src_w` samples long.
void launch_speed_load(const void* a, const void* b, int bitdepth, int src_w,
                       const SpeedShape& shape, const SpeedSide& side, cudaStream_t stream);
// Decimation, residual and window means (binary32 only).
void launch_speed_filters(const SpeedShape& shape, const SpeedSide& side, cudaStream_t stream);
// The covariance sums into side.sums.
void launch_speed_covariance(const SpeedShape& shape, const SpeedSide& side, bool emulate_fp64,
                             cudaStream_t stream);
// Each block's entropy and variance, from side.qt, side.r, side.eigenvalues.
void launch_speed_blocks(const SpeedShape& shape, const SpeedSide& side, bool singular,
                         bool emulate_fp64, cudaStream_t stream);
// Each block's term of the score.
void launch_speed_terms(const SpeedShape& shape, const SpeedSide& ref, const SpeedSide& dis,
                        float base_entropy, int mode, float* terms, int* invalid, bool emulate_fp64,
                        cudaStream_t stream);

// The binary64 launches of one arithmetic (speed_f64_kernels.cuh).
namespace native {
void launch_covariance(const SpeedShape& shape, const SpeedSide& side, cudaStream_t stream);
void launch_blocks(const SpeedShape& shape, const SpeedSide& side, bool singular,
                   cudaStream_t stream);
void launch_terms(const SpeedShape& shape, const SpeedSide& ref, const SpeedSide& dis,
                  float base_entropy, int mode, float* terms, int* invalid, cudaStream_t stream);
}  // namespace native
namespace emulate {
void launch_covariance(const SpeedShape& shape, const SpeedSide& side, cudaStream_t stream);
void launch_blocks(const SpeedShape& shape, const SpeedSide& side, bool singular,
                   cudaStream_t stream);
void launch_terms(const SpeedShape& shape, const SpeedSide& ref, const SpeedSide& dis,
                  float base_entropy, int mode, float* terms, int* invalid, cudaStream_t stream);
}  // namespace emulate

}  // namespace exactvq::speed::cuda
