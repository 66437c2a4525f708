#include "backends/cpu/cpu_device.h"

#include "backends/cpu/simd_targets.h"

namespace exactvq {

std::string CpuDevice::description() const { return "cpu (" + cpu::current_target_name() + ")"; }

Device& cpu_device() {
  static CpuDevice device;
  return device;
}

}  // namespace exactvq
