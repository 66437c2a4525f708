// float_ssim's SIMD stages (Highway kernels), each the twin of the scalar
// reference stage of the same name in metrics/float_ssim/reference.cpp (the
// FloatSsimStages table): same arguments, same bits, tested against it in
// tests/twins/float_ssim_rows.cpp. float_ssim_simd and float_ms_ssim_simd run
// the reference's pipeline with these stages.
//
// Lanes follow the definition (docs/spec/float_ssim.md): one output a lane;
// every product in binary32 lanes, widened to binary64 lanes and accumulated
// there, tap by tap in the reference's order; the per-pixel terms' binary32
// steps in binary32 lanes and their binary64 steps in binary64 lanes, Mul then
// Add (never fused). The raster-order sums over the terms stay the
// reference's scalar loop. The one-lane target (HWY_SCALAR) runs the
// reference for every stage but decimation.
#pragma once

#include <span>

#include "core/picture.h"
#include "metrics/float_ssim/options.h"
#include "metrics/float_ssim/reference.h"

namespace exactvq::float_ssim::cpu {

// Twins of kReferenceStages' members.
void window_horizontal(const float* in, int out_width, float* out);
void window_vertical(std::span<const float* const> rows, int width, float* out);
void products(const float* ref, const float* cmp, int n, float* ref_sq, float* cmp_sq, float* both);
void terms(const TermRow& in, int n, double* l, double* c, double* s);
// In place (`out` aliasing `img`) it reads the whole row's inputs before
// writing: the reference's bits wherever no read of the reference meets an
// earlier output, as in every decimation float_ssim does (spec, "Downscaling").
void decimate_row(const float* img, int width, int height, int y, int factor,
                  const DecimationKernel& k, int out_width, float* out);

extern const FloatSsimStages kSimdStages;

// float_ssim_reference's and float_ms_ssim_reference's scores with these stages: the same bits.
SsimScores float_ssim_simd(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                           const SsimOptions& o);
MsSsimScores float_ms_ssim_simd(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                                const MsSsimOptions& o);

}  // namespace exactvq::float_ssim::cpu
