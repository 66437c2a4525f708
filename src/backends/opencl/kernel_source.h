// The metrics' OpenCL C sources, embedded at build time (exactvq_embed_opencl in
// this folder's CMakeLists.txt) with their headers pasted in.
#pragma once

namespace exactvq::opencl {

extern const char* const kSsimKernelSource;  // metrics/ssim/opencl/ssim_kernels.cl
extern const char* const kPsnrKernelSource;  // metrics/psnr/opencl/psnr_kernels.cl
extern const char* const kVifKernelSource;   // metrics/vif/opencl/vif_kernels.cl
extern const char* const kMotionKernelSource;  // metrics/motion/opencl/motion_kernels.cl
extern const char* const kAdmKernelSource;     // metrics/adm/opencl/adm_kernels.cl
extern const char* const kRasterSumKernelSource;  // backends/opencl/raster_sum.cl
extern const char* const kFloatSsimKernelSource;  // metrics/float_ssim/opencl/float_ssim_kernels.cl

}  // namespace exactvq::opencl
