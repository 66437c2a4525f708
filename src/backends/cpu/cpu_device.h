// The host CPU as a Device: the metrics' Highway SIMD engines
// (metrics/<metric>/cpu/) run on it, threads from their setup's pool.
#pragma once

#include "backends/device.h"

namespace exactvq {

class CpuDevice : public Device {
 public:
  std::string description() const override;  // "cpu (AVX2)": the SIMD target that runs
  DeviceKind kind() const override { return DeviceKind::kCpu; }
};

}  // namespace exactvq
