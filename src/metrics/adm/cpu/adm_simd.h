// ADM's row routines as Highway kernels: each the twin of a scalar reference
// routine (dwt.h, masking.h, ...), with its signature and its bits on every
// target; tests/twins/adm_rows.cpp compares them. simd_row_kernels() is the
// table the feature runs: the twins where there are some, the references elsewhere.
#pragma once

#include <array>
#include <cstdint>

#include "metrics/adm/row_kernels.h"

namespace exactvq::adm::cpu {

const RowKernels& simd_row_kernels();

// The twins (cpu/dwt_simd.cpp). The horizontal passes' taps must be dwt_taps() of
// the lo/hi rows' length, as the driver passes them: the inner outputs are
// computed from that pattern and only the two edge outputs read `taps`.
void dwt0_vertical8(const uint8_t* const rows[4], int width, int16_t* lo, int16_t* hi);
void dwt0_vertical16(const uint16_t* const rows[4], int width, int bitdepth, int16_t* lo,
                     int16_t* hi);
void dwt0_horizontal(const int16_t* lo, const int16_t* hi, const std::array<int, 4>* taps,
                     int out_width, int16_t* a, int16_t* v, int16_t* h, int16_t* d);
void dwt_vertical_s123(const int32_t* const rows[4], int width, int scale, int32_t* lo,
                       int32_t* hi);
void dwt_horizontal_s123(const int32_t* lo, const int32_t* hi, const std::array<int, 4>* taps,
                         int out_width, int scale, int32_t* a, int32_t* v, int32_t* h, int32_t* d);
void dwt_vertical_s1(const int16_t* const rows[4], int width, int32_t* lo, int32_t* hi);

// cpu/masking_simd.cpp.
std::array<int64_t, 3> masking_row_s0(const MaskingRows<int16_t>& rows, int width, int begin,
                                      int end, const uint16_t factor[3], const CubeShift& cube);
std::array<int64_t, 3> masking_row_s123(const MaskingRows<int32_t>& rows, int width, int begin,
                                        int end, const uint32_t factor[3], const CubeShift& cube);

// cpu/masking_simd.cpp: masking.h's flat_sum_row at scale 0 and at scales 1..3.
void flat_sum_row_s0(OrientedRows<int16_t> flat, int width, int32_t* out);
void flat_sum_row_s123(OrientedRows<int32_t> flat, int width, int32_t* out);

// cpu/csf_simd.cpp.
void csf_row_s0(const int16_t* src, int begin, int end, uint16_t factor, int shift, int32_t round,
                int16_t* csf, int16_t* flt);
void csf_row_s123(const int32_t* src, int begin, int end, uint32_t factor, int32_t* csf,
                  int32_t* flt);

// cpu/denominator_simd.cpp.
std::array<uint64_t, 3> denominator_row_s0(OrientedRows<int16_t> ref, int begin, int end);
std::array<uint64_t, 3> denominator_row_s123(OrientedRows<int32_t> ref, int begin, int end,
                                             int scale, int cube_shift, uint64_t cube_round);

// cpu/decouple_simd.cpp.
void decouple_row_s0(OrientedRows<int16_t> ref, OrientedRows<int16_t> dis, int begin, int end,
                     double gain_limit, OrientedRowsOut<int16_t> restored,
                     OrientedRowsOut<int16_t> additive);
// cpu/decouple_s123_simd.cpp.
void decouple_row_s123(OrientedRows<int32_t> ref, OrientedRows<int32_t> dis, int begin, int end,
                       double gain_limit, OrientedRowsOut<int32_t> restored,
                       OrientedRowsOut<int32_t> additive);

}  // namespace exactvq::adm::cpu
