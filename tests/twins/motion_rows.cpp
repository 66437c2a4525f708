// Rows of motion's CPU SIMD routines beside its scalar reference (metrics/motion/).
#include "cpu_rows.h"
