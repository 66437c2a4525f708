// glibc 2.36's log2 (Arm optimized-routines, FMA variant), pinned: a
// 64-entry table of 1/c and log2(c) reduces x = 2^k z to r = z/c - 1, and a
// degree-6 polynomial in r finishes; inputs within a few percent of 1 take a
// degree-11 polynomial instead. The multiply-adds fused are those the FMA
// build fuses, found in its machine code (docs/spec/libm.md). The text is
// libm/log2_steps.h, shared with the CUDA kernels (log2_double.h) and the
// softfp form for devices without fp64 (log2_softfp.h).
#include "libm/libm.h"
#include "libm/log2_double.h"

namespace exactvq::libm {

double log2(double x) { return exactvq_log2_f64(x); }

}  // namespace exactvq::libm
