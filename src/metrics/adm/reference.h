// The scalar reference of libvmaf's integer ADM feature (integer_adm.c, its
// C code): THE definition in code. Four DWT scales; per scale the decoupling
// of the distorted detail into restored and additive parts, the CSF, the
// contrast masking (numerator, and AIM's numerator with the roles swapped)
// and the reference's energy (denominator). docs/spec/vmaf_adm.md.
#pragma once

#include <array>
#include <cstdint>

#include "core/picture.h"
#include "metrics/adm/options.h"
#include "metrics/adm/stages.h"

namespace exactvq::adm {

// Every value libvmaf's extractor appends for a frame, as the doubles it appends.
struct AdmScores {
  double adm2 = 0;   // integer_adm2: num / den
  double aim = 0;    // integer_aim: AIM numerator / den
  double adm3 = 0;   // integer_adm3: max(adm2 * w + (1 - aim) * (1 - w), min_val)
  double scale[4] = {};  // integer_adm_scale0..3: num_scale / den_scale
  // debug=true adds these.
  double adm = 0;  // integer_adm (= adm2)
  double num = 0, den = 0;
  double num_scale[4] = {}, den_scale[4] = {};
};

// The smallest picture side the definition takes: below 33 libvmaf's DWT
// index table reads outside its buffers (17..32) or runs away (up to 16, the
// SIGSEGV), and its scale-0 masking shift is 0 or negative (up to 32).
inline constexpr int kMinAdmSide = 33;

// Throws InputError naming `what` and the size unless both sides are >= kMinAdmSide.
void check_adm_size(int width, int height, const char* what);

// ADM of the luma planes ref and dist (same size, bitdepth 8..16, samples
// uint8_t for 8 bits, else uint16_t). Throws InputError for sizes below kMinAdmSide.
AdmScores adm_reference(const PlaneView& ref, const PlaneView& dist, int bitdepth, const AdmOptions& o);

struct RowKernels;  // row_kernels.h

// The same driver with the row routines of `kernels` (reference_row_kernels()
// gives adm_reference; cpu/adm_simd.h's SIMD twins give the same bits faster).
AdmScores adm_scores(const PlaneView& ref, const PlaneView& dist, int bitdepth, const AdmOptions& o,
                     const RowKernels& kernels);

// The per-sample half of a frame (what an engine computes): per scale, per
// orientation (h, v, d), the integer sums the host converts, each the sum over
// the scored rows of that row's sum rounded and shifted as libvmaf shifts it.
// den: the reference's energy (libvmaf's uint64 accumulators); num: the
// masked restored part; aim_num: AIM's masked additive part (0 with
// adm_skip_aim). int64 sums are modulo 2^64, as libvmaf's wrap. A skipped
// scale 0 (adm_skip_scale0) is all zeros.
struct ScaleSums {
  uint64_t den[3] = {};
  int64_t num[3] = {};
  int64_t aim_num[3] = {};
};
using AdmSums = std::array<ScaleSums, 4>;

// The driver's per-sample half with the row routines of `kernels`; same
// checks and errors as adm_reference.
AdmSums adm_integer_sums(const PlaneView& ref, const PlaneView& dist, int bitdepth, const AdmOptions& o,
                         const RowKernels& kernels);

struct CsfFactors;  // csf_factors.h

// The plan of scale n (0..3) of a width x height picture, as the driver forms
// its regions and shifts, for engines that run the stages one output at a
// time (stages.h).
stages::ScalePlan scale_plan(int width, int height, int scale, const CsfFactors& f);

// The host half: the scores of a width x height frame from its sums (the
// float and binary64 steps, one_third_power, the pinned CSF factors).
AdmScores adm_scores_from_sums(const AdmSums& sums, int width, int height, const AdmOptions& o);

}  // namespace exactvq::adm
