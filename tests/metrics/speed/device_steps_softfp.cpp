// The pipeline of device_steps.h on softfp (the OpenCL and CUDA fp64=emulate kernels' arithmetic).
#define SPEED_EMULATE_FP64 1
#define SPEED_PIPELINE_NAME score_with_softfp_steps
#include "device_steps_pipeline.h"
