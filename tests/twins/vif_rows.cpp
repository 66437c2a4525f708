// Rows of vif's CPU SIMD routines beside its scalar reference (metrics/vif/).
#include "cpu_rows.h"
