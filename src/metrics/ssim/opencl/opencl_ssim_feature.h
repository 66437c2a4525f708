// The `ssim` feature on an OpenCL device: bit for bit the CPU reference.
#pragma once

#include <memory>

#include "metrics/ssim/ssim_feature.h"

namespace exactvq::opencl {

class OpenclDevice;

std::unique_ptr<Feature> make_opencl_ssim_feature(const SsimOptions& options,
                                                  const VideoFormat& format,
                                                  std::shared_ptr<OpenclDevice> device);

}  // namespace exactvq::opencl
