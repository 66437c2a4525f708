// The CUDA DeviceBackend: one GPU chosen with --gpu, making the features it computes.
#pragma once

#include <string>

#include "features/device_backend.h"

namespace exactvq::cuda {

class CudaDevice final : public DeviceBackend {
 public:
  // Throws DeviceError when the device cannot be used.
  CudaDevice(int ordinal, const VideoFormat& format);
  std::string description() const override { return description_; }
  std::unique_ptr<Feature> make_feature(const FeatureSpec& spec, const FeatureContext& ctx) override;
  int ordinal() const { return ordinal_; }
  // fp64=auto emulates the term where fp64 runs at under 1/8 of the fp32 rate
  // (consumer cards: 1/32 to 1/64); data-centre chips (1/2) keep native fp64.
  bool emulate_by_default() const { return fp32_per_fp64_ > 8; }

 private:
  int ordinal_;
  int fp32_per_fp64_ = 0;
  std::string description_;
};

}  // namespace exactvq::cuda
