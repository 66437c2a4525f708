// The `psnr` feature on an OpenCL device: the device sums the squared errors,
// the host's PsnrScorer turns them into libvmaf's values (the CPU's bits).
#pragma once

#include <memory>

#include "metrics/psnr/psnr_feature.h"

namespace exactvq::opencl {

class OpenclDevice;

std::unique_ptr<Feature> make_opencl_psnr_feature(const PsnrOptions& options,
                                                  const VideoFormat& format,
                                                  std::shared_ptr<OpenclDevice> device);

}  // namespace exactvq::opencl
