/* softfp operations: conversions, add, subtract, multiply and divide, each the
 * correctly rounded binary64 result (round to nearest even) for zero and normal
 * operands; the fused multiply-add (one rounding); and the fast forms of multiply and divide for
 * normal operands, in 32-bit words and without data-dependent branches, for the kernels' hot loops.
 * Tested against native binary64 the TestFloat way (tests/softfp/).
 */
#ifndef EXACTVQ_SOFTFP_OPS_H
#define EXACTVQ_SOFTFP_OPS_H

#include "softfp/softfp_primitives.h"

#include "softfp/softfp_convert.h"
#include "softfp/softfp_add.h"
#include "softfp/softfp_mul.h"
#include "softfp/softfp_div.h"
#include "softfp/softfp_compare.h"
#include "softfp/softfp_truncate.h"
#include "softfp/softfp_fast.h"
#include "softfp/softfp_fma.h"

#endif /* EXACTVQ_SOFTFP_OPS_H */
