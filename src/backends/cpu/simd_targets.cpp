#include "backends/cpu/simd_targets.h"

#include <hwy/highway.h>
#include <hwy/targets.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <mutex>

#include "core/error.h"

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

namespace {

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::toupper(c)); });
  return s;
}

void apply_simd_choice(const std::string& value) {
  const std::vector<SimdTarget> targets = supported_targets();
  std::string wanted = upper(value);
  const bool no_vnni = wanted == "AVX3_NOVNNI";
  if (no_vnni) wanted = "AVX3";
  int64_t better = 0;  // the targets above the chosen one, disabled
  for (const SimdTarget& t : targets) {
    if (upper(t.name) == wanted) {
      if (better != 0) hwy::DisableTargets(better);
      if (no_vnni) forced_vnni.store(0);
      return;
    }
    better |= t.bits;
  }
  std::string names;
  for (const SimdTarget& t : targets) {
    names += names.empty() ? "" : ", ";
    names += t.name;
    if (t.name == "AVX3" && vnni_supported()) names += ", AVX3_NOVNNI";
  }
  throw InputError("EXACTVQ_SIMD='" + value + "': this CPU runs " + names +
                   " (any case), or leave it unset for the best");
}

}  // namespace

void apply_simd_environment() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* value = std::getenv("EXACTVQ_SIMD");
    if (value && *value) apply_simd_choice(value);
  });
}

}  // namespace exactvq::cpu
