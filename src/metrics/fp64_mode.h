// The `fp64=auto|native|emulate` option of the features whose definition has
// binary64 per-pixel steps (ssim, vif, adm): how a GPU runs those steps. Both
// give the same bits; emulated runs them on integers (softfp/) for devices
// with slow or no fp64. The CPU always uses native binary64, OpenCL always
// emulates.
#pragma once

#include <string>

namespace exactvq {

enum class Fp64Mode { kAuto, kNative, kEmulate };

// "auto", "native" or "emulate"; throws UsageError naming the feature otherwise.
Fp64Mode parse_fp64_mode(const std::string& feature, const std::string& value);

// Whether a CUDA device emulates under `mode`: auto follows the device's
// default (CudaDevice::emulate_by_default, by its fp64 rate).
inline bool emulates_fp64(Fp64Mode mode, bool device_default) {
  return mode == Fp64Mode::kEmulate || (mode == Fp64Mode::kAuto && device_default);
}

}  // namespace exactvq
