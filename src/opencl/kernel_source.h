// The OpenCL C source of the SSIM kernels with softfp pasted in, generated at
// build time from ssim_kernels.cl and softfp/softfp.h.
#pragma once

namespace exactvq::opencl {

extern const char* const kSsimKernelSource;

}  // namespace exactvq::opencl
