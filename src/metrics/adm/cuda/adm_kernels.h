// The adm engine's kernels, as the CUDA engine launches them on planes already
// on the device: one scale's DWT, the decoupling, the CSF, and the masking
// and denominator sums, row by row as libvmaf shifts them. Each thread runs
// one output of a stage (metrics/adm/stages.h) with the scale's plan.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "metrics/adm/stages.h"

namespace exactvq::adm::cuda {

using adm::stages::ScalePlan;

// Bands of `frames` frames: band k of frame f starts at base + k * band_stride
// + f * frame_stride elements (int16_t at scale 0, int32_t at scales 1..3),
// rows stored tightly, `width` x `height`. Subbands are a, h, v, d (index
// 0..3); oriented bands h, v, d (0..2).
struct AdmBands {
  void* base = nullptr;
  size_t frame_stride = 0;
  size_t band_stride = 0;
  int width = 0;
  int height = 0;
};

// Scale 0's DWT of `frames` planes (8-bit samples when `bytes`, else 16-bit),
// each frame_stride bytes after the previous, into the four int16 subbands.
void launch_adm_dwt0(const void* planes, size_t frame_stride, bool bytes, int width, int height,
                     int bitdepth, int frames, const AdmBands& out, cudaStream_t stream);

// Scales 1..3: the DWT of band 0 of `src` (int16 when src_16, i.e. scale 0's
// a band; else int32) into the four int32 subbands of `out`.
void launch_adm_dwt_s123(const AdmBands& src, bool src_16, int scale, int frames,
                         const AdmBands& out, cudaStream_t stream);

// The decoupling over the plan's filter region of the detail subbands 1..3
// of ref and dis into the oriented bands restored and additive; its binary64
// steps in native fp64, or through softfp/ on integers when emulate_fp64
// (same bits).
void launch_adm_decouple(bool scale0, const AdmBands& ref, const AdmBands& dis,
                         const ScalePlan& plan, double gain_limit, bool emulate_fp64, int frames,
                         const AdmBands& restored, const AdmBands& additive, cudaStream_t stream);

// The CSF over the plan's filter region of the oriented bands src into csf and flat.
void launch_adm_csf(bool scale0, const AdmBands& src, const ScalePlan& plan, int frames,
                    const AdmBands& csf, const AdmBands& flat, cudaStream_t stream);

// The masking sums of oriented bands src against the masker (csf, flat) over
// the plan's scored region: each row's sum per orientation rounded and
// shifted (stages::masking_row_total), added into sums[f * sums_stride + 0..2].
void launch_adm_masking(bool scale0, const AdmBands& src, const AdmBands& csf, const AdmBands& flat,
                        const ScalePlan& plan, int frames, uint64_t* sums, size_t sums_stride,
                        cudaStream_t stream);

// The denominator sums of subbands 1..3 of ref over the plan's scored region:
// each row's sum per orientation rounded and shifted
// (stages::denominator_row_total), added into sums[f * sums_stride + 0..2].
void launch_adm_denominator(int scale, const AdmBands& ref, const ScalePlan& plan, int frames,
                            uint64_t* sums, size_t sums_stride, cudaStream_t stream);

}  // namespace exactvq::adm::cuda
