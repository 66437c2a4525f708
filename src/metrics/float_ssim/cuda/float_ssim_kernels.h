// float_ssim's kernels, as the CUDA engine launches them on planes already on
// the device: conversion to binary32, decimation, and the window with the
// per-pixel terms (docs/spec/float_ssim.md), each a twin of the scalar
// reference's stage of the same step.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace exactvq::float_ssim::cuda {

// The luma planes of `frames` frames, each frame's `frame_stride` bytes after
// the previous, rows stored tightly: integer samples of `bitdepth` bits
// (uint8_t for 8, uint16_t for 10, 12, 16; converted as libvmaf's
// picture_copy does) or, with bitdepth 0, binary32 samples.
struct FsPlanes {
  const void* ref = nullptr;
  const void* dist = nullptr;
  size_t frame_stride = 0;
  int width = 0;
  int height = 0;
  int bitdepth = 0;
  int frames = 1;
};

// Where a kernel writes binary32 planes of `frames` frames, `frame_stride` bytes apart.
struct FsFloatOut {
  float* ref = nullptr;
  float* dist = nullptr;
  size_t frame_stride = 0;
};

// A decimation kernel: size x size binary32 taps, row-major (float_ssim's box
// of up to 10 x 10, MS-SSIM's 9 x 9 low-pass table).
struct FsKernel {
  static constexpr int kMaxSize = 10;
  float taps[kMaxSize * kMaxSize] = {};
  int size = 0;
};

// The window's 11 taps and iqa's C1, C2, C3 (binary32, from reference.h).
struct FsConstants {
  float window[11] = {};
  float c1 = 0, c2 = 0, c3 = 0;
};

// A scale's term planes of ow x oh binary64 terms each in raster order, every
// frame's `frame_stride` bytes after the previous; null where not wanted.
// lcs = (l * c) * s, the term of the SSIM sum; s is the binary32 quotient
// widened (exactly), the value the reference adds.
struct FsTerms {
  double* lcs = nullptr;
  double* l = nullptr;
  double* c = nullptr;
  double* s = nullptr;
  size_t frame_stride = 0;
};

// Integer samples (bitdepth > 0) to binary32, every sample.
void launch_fs_convert(const FsPlanes& in, const FsFloatOut& out, cudaStream_t stream);

// Decimation by `factor` (iqa's _iqa_decimate): out_width x out_height
// samples, each the kernel centred on (x * factor, y * factor), edges mirrored;
// the binary64 tap sums native or (emulate_fp64) on softfp.
void launch_fs_decimate(const FsPlanes& in, const FsKernel& kernel, int factor, int out_width,
                        int out_height, const FsFloatOut& out, bool emulate_fp64,
                        cudaStream_t stream);

// The windows over binary32 planes (bitdepth 0) of at least 11 x 11 samples
// and their terms at every position; every binary64 step native or
// (emulate_fp64) on softfp, the same bits.
void launch_fs_terms(const FsPlanes& in, const FsConstants& k, const FsTerms& out,
                     bool emulate_fp64, cudaStream_t stream);

}  // namespace exactvq::float_ssim::cuda
