// Rows of adm's CPU SIMD routines beside its scalar reference (metrics/adm/).
#include "cpu_rows.h"
