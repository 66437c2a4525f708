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

 private:
  int ordinal_;
  std::string description_;
};

}  // namespace exactvq::cuda
