#include "backends/cpu/cpu_device.h"

#include "backends/cpu/simd_targets.h"

namespace exactvq {

std::string CpuDevice::description() const {
  const std::string target = cpu::current_target_name();
  return "cpu (" + target + (target == "AVX3" && cpu::use_vnni() ? " with VNNI" : "") + ")";
}

Device& cpu_device() {
  cpu::apply_simd_environment();
  static CpuDevice device;
  return device;
}

}  // namespace exactvq
