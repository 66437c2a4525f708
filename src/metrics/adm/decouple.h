// ADM's decoupling: splits the distorted detail bands into the part restored
// from the reference (r = clamp(t / o, 0, 1) * o, enhancement kept up to the
// gain limit when the (h, v) angle of o and t is within one degree) and the
// additive impairment a = t - r. Integer arithmetic except the angle test,
// which libvmaf makes in float and binary64 (pinned below, evaluated in the
// same order and types).
#pragma once

#include <cstdint>

#include "metrics/adm/band.h"

namespace exactvq::adm {

// (float)(cos(1 degree) * cos(1 degree)) as libvmaf rounds it.
inline constexpr float kCosOneDegreeSquared = 0x1.ffd814p-1f;

// Q30 reciprocals of 1..32768, signed: entry 32768 + i is 2^30 / i truncated,
// entry 32768 - i its negation (entry 32768 is unused).
const int32_t* reciprocal_table();

// Columns [begin, end) of one row of each scale-0 band (16-bit) ...
void decouple_row_s0(OrientedRows<int16_t> ref, OrientedRows<int16_t> dis, int begin, int end,
                     double gain_limit, OrientedRowsOut<int16_t> restored,
                     OrientedRowsOut<int16_t> additive);
// ... and of scales 1..3 (32-bit, the divisor reduced to 15 bits first).
void decouple_row_s123(OrientedRows<int32_t> ref, OrientedRows<int32_t> dis, int begin, int end,
                       double gain_limit, OrientedRowsOut<int32_t> restored,
                       OrientedRowsOut<int32_t> additive);

}  // namespace exactvq::adm
