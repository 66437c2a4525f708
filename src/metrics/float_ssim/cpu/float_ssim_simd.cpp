// float_ssim's pipeline with the SIMD row stages (float_ssim_simd.h).
#include "metrics/float_ssim/cpu/float_ssim_simd.h"

namespace exactvq::float_ssim::cpu {

const FloatSsimStages kSimdStages{&cpu::window_horizontal, &cpu::window_vertical, &cpu::products,
                                  &cpu::terms, &cpu::decimate_row};

SsimScores float_ssim_simd(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                           const SsimOptions& o) {
  return float_ssim_with_stages(ref, dist, bitdepth, o, kSimdStages);
}

MsSsimScores float_ms_ssim_simd(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                                const MsSsimOptions& o) {
  return float_ms_ssim_with_stages(ref, dist, bitdepth, o, kSimdStages);
}

}  // namespace exactvq::float_ssim::cpu
