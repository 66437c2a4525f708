// vif's pyramid with the SIMD row stages (vif_simd.h).
#include "metrics/vif/cpu/vif_simd.h"

namespace exactvq::vif::cpu {

namespace {
constexpr VifStages kSimdStages{&cpu::row_statistics, &cpu::blur_row, &cpu::row_statistics_pair};
}  // namespace

VifScores vif_simd(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                   const VifOptions& options) {
  return vif_with_stages(ref, dist, bitdepth, options, kSimdStages);
}

VifLevelSums vif_simd_level_sums(const PlaneView& ref, const PlaneView& dist, int bitdepth,
                                 const VifOptions& options) {
  return vif_level_sums(ref, dist, bitdepth, options, kSimdStages);
}

}  // namespace exactvq::vif::cpu
