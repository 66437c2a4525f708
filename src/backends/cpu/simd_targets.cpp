#include "backends/cpu/simd_targets.h"

#include <hwy/highway.h>
#include <hwy/targets.h>

#include <atomic>

namespace exactvq::cpu {

std::vector<SimdTarget> supported_targets() {
  std::vector<SimdTarget> out;
  for (int64_t t : hwy::SupportedAndGeneratedTargets()) out.push_back({t, hwy::TargetName(t)});
  return out;
}

std::vector<SimdTarget> compiled_targets() {
  std::vector<SimdTarget> out;
  for (int64_t bits = HWY_TARGETS; bits != 0; bits &= bits - 1) {
    const int64_t t = bits & -bits;  // lowest set bit: the best target left
    out.push_back({t, hwy::TargetName(t)});
  }
  return out;
}

bool supported(const SimdTarget& target) { return (hwy::SupportedTargets() & target.bits) != 0; }

std::string current_target_name() {
  const auto targets = hwy::SupportedAndGeneratedTargets();
  return targets.empty() ? "none" : hwy::TargetName(targets.front());
}

ForcedTarget::ForcedTarget(int64_t target) {
  hwy::SetSupportedTargetsForTest(target);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
}

ForcedTarget::~ForcedTarget() {
  hwy::SetSupportedTargetsForTest(0);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
}

namespace {
// -1: as the CPU says; 0 or 1: forced off or on.
std::atomic<int> forced_vnni{-1};
}  // namespace

bool vnni_supported() {
#if HWY_ARCH_X86 && (defined(__GNUC__) || defined(__clang__))
  static const bool has = __builtin_cpu_supports("avx512vnni");
  return has;
#else
  return false;
#endif
}

bool use_vnni() {
  const int forced = forced_vnni.load(std::memory_order_relaxed);
  return forced < 0 ? vnni_supported() : forced == 1;
}

ForcedVnni::ForcedVnni(bool use) : previous_(forced_vnni.exchange(use && vnni_supported())) {}

ForcedVnni::~ForcedVnni() { forced_vnni.store(previous_); }

}  // namespace exactvq::cpu
