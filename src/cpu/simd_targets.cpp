#include "cpu/simd_targets.h"

#include <hwy/highway.h>
#include <hwy/targets.h>

namespace exactvq::cpu {

std::vector<SimdTarget> supported_targets() {
  std::vector<SimdTarget> out;
  for (int64_t t : hwy::SupportedAndGeneratedTargets()) out.push_back({t, hwy::TargetName(t)});
  return out;
}

std::string current_target_name() {
  const auto targets = hwy::SupportedAndGeneratedTargets();
  return targets.empty() ? "none" : hwy::TargetName(targets.front());
}

bool best_target_is_avx512() {
#if HWY_ARCH_X86
  const auto targets = hwy::SupportedAndGeneratedTargets();
  // x86 targets are bits, better ones lower: AVX3 and the AVX-512 targets above
  // it (AVX3_DL, and in later Highway versions AVX3_ZEN4, AVX3_SPR) lie below
  // AVX2's bit.
  return !targets.empty() && targets.front() < HWY_AVX2;
#else
  return false;
#endif
}

ForcedTarget::ForcedTarget(int64_t target) {
  hwy::SetSupportedTargetsForTest(target);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
}

ForcedTarget::~ForcedTarget() {
  hwy::SetSupportedTargetsForTest(0);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
}

}  // namespace exactvq::cpu
