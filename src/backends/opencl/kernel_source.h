// The backend's own OpenCL C source, embedded at build time (exactvq_embed_opencl
// in this folder's CMakeLists.txt) with its headers pasted in. Each metric
// embeds and declares its own in its opencl/ folder.
#pragma once

namespace exactvq::opencl {

extern const char* const kRasterSumKernelSource;  // backends/opencl/raster_sum.cl

}  // namespace exactvq::opencl
