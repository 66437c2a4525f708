/* softfp: binary64 on 64-bit integers, for devices without fp64 (spec/fp64-free.md).
 * The float library: its primitives and operations. See softfp_primitives.h. */
#ifndef EXACTVQ_SOFTFP_H
#define EXACTVQ_SOFTFP_H

#include "softfp/softfp_primitives.h"
#include "softfp/softfp_ops.h"

#endif /* EXACTVQ_SOFTFP_H */
