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
// flat_sum_above/row/below: where given, the same three rows summed over the
// orientations (flat_sum_row below). The three orientations' neighbourhoods
// enter the threshold only through their total (a sum of integers, modulo
// 2^32 at most), so a twin may read these sums, one row for the three, made
// once for the three output rows that read it; the reference reads each
// orientation's rows.
template <typename T>
struct MaskingRows {
  OrientedRows<T> src;
  OrientedRows<T> masker;
  OrientedRows<T> flat_above, flat_row, flat_below;
  const int32_t* flat_sum_above = nullptr;
  const int32_t* flat_sum_row = nullptr;
  const int32_t* flat_sum_below = nullptr;
};

// Columns [0, width) of a flattened row summed over the orientations, modulo 2^32.
template <typename T>
void flat_sum_row(OrientedRows<T> flat, int width, int32_t* out) {
  for (int j = 0; j < width; ++j)
    out[j] = static_cast<int32_t>(static_cast<uint32_t>(flat.band[0][j]) +
                                  static_cast<uint32_t>(flat.band[1][j]) +
                                  static_cast<uint32_t>(flat.band[2][j]));
}
// The row table's references (row_kernels.h), at scale 0 and at scales 1..3.
inline void flat_sum_row_s0(OrientedRows<int16_t> flat, int width, int32_t* out) {
  flat_sum_row(flat, width, out);
}
inline void flat_sum_row_s123(OrientedRows<int32_t> flat, int width, int32_t* out) {
  flat_sum_row(flat, width, out);
}

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
