#include "opencl/opencl_device.h"

#include <fmt/format.h>

#include "core/error.h"
#include "features/psnr_feature.h"
#include "features/ssim_feature.h"
#include "opencl/kernel_source.h"
#include "opencl/opencl_psnr_feature.h"
#include "opencl/opencl_ssim_feature.h"

namespace exactvq {

namespace opencl {

OpenclDevice::OpenclDevice(int index, const char* kernel_source) {
  const std::vector<DeviceEntry> devices = list_devices();
  if (devices.empty())
    throw DeviceError("no OpenCL device (the ICD loader found no platform with a device)");
  if (index < 0 || size_t(index) >= devices.size()) {
    std::string names;
    for (size_t i = 0; i < devices.size(); ++i)
      names += fmt::format("{}{}: {} ({})", i ? ", " : "", i, devices[i].name, devices[i].platform_name);
    throw DeviceError(fmt::format("--opencl-device {}: there {} {} OpenCL device{} ({})", index,
                                  devices.size() == 1 ? "is" : "are", devices.size(),
                                  devices.size() == 1 ? "" : "s", names));
  }
  const DeviceEntry& entry = devices[size_t(index)];
  context_ = std::make_unique<DeviceContext>(entry);
  ssim_program_ = context_->build(kernel_source ? kernel_source : kSsimKernelSource, "the SSIM kernels");
  description_ = fmt::format("opencl device {}: {} ({})", index, entry.name, entry.platform_name);
}

std::unique_ptr<Feature> OpenclDevice::make_feature(const FeatureSpec& spec, const FeatureContext& ctx) {
  if (spec.name == "ssim") {
    const SsimOptions options = parse_ssim_options(spec);
    if (options.chroma && ctx.format.chroma == ChromaFormat::kMono)
      throw UsageError("feature ssim: chroma=true, but the input is monochrome (no Cb, Cr planes)");
    return make_opencl_ssim_feature(options, ctx.format, shared_from_this());
  }
  if (spec.name == "psnr")
    return make_opencl_psnr_feature(parse_psnr_options(spec), ctx.format, shared_from_this());
  return nullptr;
}

cl_program OpenclDevice::psnr_program() {
  if (!psnr_program_.get()) psnr_program_ = context_->build(kPsnrKernelSource, "the PSNR kernel");
  return psnr_program_.get();
}

}  // namespace opencl

std::shared_ptr<DeviceBackend> open_opencl_device(const DeviceOptions& o, const VideoFormat&) {
  return std::make_shared<opencl::OpenclDevice>(o.opencl_device);
}

}  // namespace exactvq
