// SpEED's binary64 kernels on softfp (fp64=emulate): speed_f64_kernels.cuh
// with device_steps.h taking softfp, the OpenCL kernels' arithmetic.
#define SPEED_EMULATE_FP64 1
#define SPEED_F64_NAMESPACE emulate
#include "metrics/speed/cuda/speed_f64_kernels.cuh"
