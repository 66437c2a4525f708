// The SIMD targets Highway compiled into exactvq and the machine can run, and a
// way to force one, so tests can check every level a machine supports (as
// dav1d's checkasm enables CPU levels one by one).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace exactvq::cpu {

struct SimdTarget {
  int64_t bits;      // a HWY_* target bit
  std::string name;  // "AVX2", "SSE4", ...
};

// Targets compiled in and supported by this CPU, best first.
std::vector<SimdTarget> supported_targets();

// Every target compiled in, best first, whether this CPU runs it or not.
std::vector<SimdTarget> compiled_targets();
bool supported(const SimdTarget& target);

// The target HWY_DYNAMIC_DISPATCH calls now.
std::string current_target_name();

// While alive, every dispatched kernel runs `target` (which must be one of
// supported_targets()); restores the normal choice when destroyed. Not thread
// safe: for tests and benchmarks, with no kernel running elsewhere.
class ForcedTarget {
 public:
  explicit ForcedTarget(int64_t target);
  ~ForcedTarget();
  ForcedTarget(const ForcedTarget&) = delete;
  ForcedTarget& operator=(const ForcedTarget&) = delete;
};

// AVX-512 VNNI (vpdpwssd: pairwise int16 multiply-adds into int32 in one
// instruction), which Highway's AVX3 target does not assume: AVX3 kernels
// that have a VNNI form ask use_vnni() at run time. Whether this CPU has it:
bool vnni_supported();
// Whether kernels use it now: vnni_supported(), unless a ForcedVnni says
// otherwise.
bool use_vnni();

// While alive, use_vnni() answers `use` (true only where vnni_supported()).
// Not thread safe, like ForcedTarget.
class ForcedVnni {
 public:
  explicit ForcedVnni(bool use);
  ~ForcedVnni();
  ForcedVnni(const ForcedVnni&) = delete;
  ForcedVnni& operator=(const ForcedVnni&) = delete;

 private:
  int previous_;
};

// The environment's choice of SIMD level for the whole process: EXACTVQ_SIMD names
// the best target kernels may use (a name of supported_targets(), any case, or
// AVX3_NOVNNI: AVX3 without VNNI); unset or empty leaves the CPU's best. Every
// level gives the same bits, so this only trades speed (AVX-512 clocks lower on
// some CPUs when many cores run it). Applied once, by the first call; throws
// InputError naming the variable and the names this CPU takes for a bad value.
void apply_simd_environment();

}  // namespace exactvq::cpu
