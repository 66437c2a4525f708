// vif's pyramid with the SIMD row stages (vif_simd.h).
#include "metrics/vif/cpu/vif_simd.h"

namespace exactvq::vif::cpu {

VifScores vif_simd(const PlaneView& ref, const PlaneView& dist, int bitdepth, const VifOptions& options) {
  static constexpr VifStages kSimdStages{&cpu::vertical_moments, &cpu::horizontal_statistics,
                                         &cpu::vertical_blur, &cpu::horizontal_blur_even};
  return vif_with_stages(ref, dist, bitdepth, options, kSimdStages);
}

}  // namespace exactvq::vif::cpu
