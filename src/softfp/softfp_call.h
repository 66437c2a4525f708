/* EXACTVQ_SOFTFP_CALL_FN, the qualifier of the larger functions built on
 * softfp (the float library's, ciede's, the binary32 operations' out-of-line
 * entries): out of line on CUDA, where inlining every softfp step of them into
 * one kernel makes nvcc take many minutes; elsewhere as every softfp function.
 * A kernel may define it beforehand. In the subset of core/portable.h. */
#ifndef EXACTVQ_SOFTFP_CALL_H
#define EXACTVQ_SOFTFP_CALL_H

#include "softfp/softfp_primitives.h"

#ifndef EXACTVQ_SOFTFP_CALL_FN
#if defined(__CUDACC__)
#define EXACTVQ_SOFTFP_CALL_FN static __host__ __device__ __noinline__ __attribute__((unused))
#else
#define EXACTVQ_SOFTFP_CALL_FN SOFTFP_FN
#endif
#endif

#endif /* EXACTVQ_SOFTFP_CALL_H */
