// The OpenCL backend: one device chosen by --opencl-device N (an index over
// every platform's devices), with the SSIM program built once when it opens.
#pragma once

#include <memory>
#include <string>

#include "features/device_backend.h"
#include "opencl/opencl_runtime.h"

namespace exactvq::opencl {

class OpenclDevice final : public DeviceBackend, public std::enable_shared_from_this<OpenclDevice> {
 public:
  // Opens device `index` and builds `kernel_source` (the embedded one by default;
  // tests pass broken ones). Throws DeviceError on a missing device or a failed build.
  explicit OpenclDevice(int index, const char* kernel_source = nullptr);

  std::string description() const override { return description_; }
  std::unique_ptr<Feature> make_feature(const FeatureSpec& spec, const FeatureContext& ctx) override;

  const DeviceContext& context() const { return *context_; }
  cl_program ssim_program() const { return ssim_program_.get(); }
  // Built on first use: runs without psnr do not pay for its compilation.
  cl_program psnr_program();

 private:
  std::unique_ptr<DeviceContext> context_;
  Handle<cl_program> ssim_program_;
  Handle<cl_program> psnr_program_;
  std::string description_;
};

}  // namespace exactvq::opencl
