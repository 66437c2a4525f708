// The pipeline of device_steps.h on softfp (the OpenCL and CUDA fp64=emulate kernels' arithmetic).
#define SPEED_EMULATE_FP64 1
#define SPEED_PIPELINE_NAME score_with_softfp_steps
#include "device_steps_pipeline.h"

namespace exactvq::speed::testing {
// The softfp steps' rounding of a binary64 value to binary32 (subnormals included).
float softfp_steps_to_float(uint64_t bits) { return speed_d_to_f(softfp_from_bits(bits)); }
float softfp_steps_divide(float a, float b) {
  return speed_d_to_f(softfp_div(speed_d_from_f(a), speed_d_from_f(b)));
}
}  // namespace exactvq::speed::testing
