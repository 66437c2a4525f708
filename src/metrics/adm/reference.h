// The scalar reference of libvmaf's integer ADM feature (integer_adm.c, its
// C code): THE definition in code. Four DWT scales; per scale the decoupling
// of the distorted detail into restored and additive parts, the CSF, the
// contrast masking (numerator, and AIM's numerator with the roles swapped)
// and the reference's energy (denominator). docs/spec/adm.md.
#pragma once

#include <array>
#include <cstdint>

#include "core/picture.h"
#include "metrics/adm/options.h"
#include "metrics/adm/scale_plan.h"  // the plan engines run beside the driver's sums
#include "metrics/adm/scores.h"

namespace exactvq::adm {

// The smallest picture side the definition takes: below 33 libvmaf's DWT
// index table reads outside its buffers (17..32) or runs away (up to 16, the
// SIGSEGV), and its scale-0 masking shift is 0 or negative (up to 32).
inline constexpr int kMinAdmSide = 33;

// Throws InputError naming `what` and the size unless both sides are >= kMinAdmSide.
void check_adm_size(int width, int height, const char* what);

// ADM of the luma planes ref and dist (same size, bitdepth 8..16, samples
// uint8_t for 8 bits, else uint16_t). Throws InputError for sizes below kMinAdmSide.
AdmScores adm_reference(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                        const AdmOptions& o);

struct RowKernels;  // row_kernels.h

// The same driver with the row routines of `kernels` (reference_row_kernels()
// gives adm_reference; cpu/adm_simd.h's SIMD twins give the same bits faster).
AdmScores adm_scores(const PlaneView& ref, const PlaneView& dist, int bitdepth, const AdmOptions& o,
                     const RowKernels& kernels);

// The driver's per-sample half with the row routines of `kernels`; same
// checks and errors as adm_reference.
AdmSums adm_integer_sums(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                         const AdmOptions& o, const RowKernels& kernels);

}  // namespace exactvq::adm
