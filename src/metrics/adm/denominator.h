// The denominator of each ADM scale: the reference's detail energy, sum over
// the scored region of |o|^3 per orientation, in integers (any order).
#pragma once

#include <array>
#include <cstdint>

#include "metrics/adm/band.h"

namespace exactvq::adm {

// Scale 0: the exact sum of |o|^3 over columns [begin, end) of one row.
std::array<uint64_t, 3> denominator_row_s0(OrientedRows<int16_t> ref, int begin, int end);

// Scales 1..3: per sample ((o^2 + 2^q) >> q) * |o|, rounded and shifted by
// cube_shift (q = 31, 30, 31 for scales 1, 2, 3; libvmaf rounds with 2^q, not 2^(q-1)).
std::array<uint64_t, 3> denominator_row_s123(OrientedRows<int32_t> ref, int begin, int end,
                                             int scale, int cube_shift, uint64_t cube_round);

}  // namespace exactvq::adm
