// The pipeline of device_steps.h in native binary64 (the CUDA native kernels' arithmetic).
#define SPEED_PIPELINE_NAME score_with_native_steps
#include "device_steps_pipeline.h"
