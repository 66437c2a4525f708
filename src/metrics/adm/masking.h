// ADM's contrast masking (libvmaf's "cm") for one row: each detail value,
// CSF-weighted, less a threshold from the masker's 3x3 neighbourhood (summed
// over the three orientations), clipped at zero and cubed in fixed point, and
// the cubes of the row summed per orientation. Integers only: any order.
#pragma once

#include <array>
#include <cstdint>

#include "metrics/adm/band.h"

namespace exactvq::adm {

// The rows one output row reads. src: row i of the band being measured (the
// restored part r for the numerator, the additive part a for AIM); masker:
// row i of the masker's CSF band; flat_above/row/below: its flattened CSF
// rows i - 1, i, i + 1, mirrored at the band's edges (row -1 -> 1, row h -> h - 1).
template <typename T>
struct MaskingRows {
  OrientedRows<T> src;
  OrientedRows<T> masker;
  OrientedRows<T> flat_above, flat_row, flat_below;
};

// The per-orientation shift after cubing (libvmaf: ceil(log2 w) - 4 for h and
// v, - 3 for d at scale 0; ceil(log2 w) at scales 1..3) and its rounding term
// (2^(shift - 1), 0 for shift 0 as libvmaf's conversion gives on x86-64).
struct CubeShift {
  int shift[3];
  int64_t round[3];
};

// Scale 0: factor[] are the CSF factors in Q21 (h, v) and Q23 (d).
std::array<int64_t, 3> masking_row_s0(const MaskingRows<int16_t>& rows, int width, int begin,
                                      int end, const uint16_t factor[3], const CubeShift& cube);
// Scales 1..3: factor[] in Q32.
std::array<int64_t, 3> masking_row_s123(const MaskingRows<int32_t>& rows, int width, int begin,
                                        int end, const uint32_t factor[3], const CubeShift& cube);

}  // namespace exactvq::adm
