// The OpenCL C sources, generated at build time (embed_kernel_source.cmake):
// ssim_kernels.cl with softfp/softfp.h pasted in, and psnr_kernels.cl.
#pragma once

namespace exactvq::opencl {

extern const char* const kSsimKernelSource;
extern const char* const kPsnrKernelSource;

}  // namespace exactvq::opencl
