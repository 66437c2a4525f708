// The row table the feature runs: SIMD twins where written, references elsewhere.
#include "metrics/adm/cpu/adm_simd.h"

namespace exactvq::adm::cpu {

const RowKernels& simd_row_kernels() {
  static const RowKernels kSimd = [] {
    RowKernels k = reference_row_kernels();
    k.dwt0_vertical8 = dwt0_vertical8;
    k.dwt0_vertical16 = dwt0_vertical16;
    k.dwt0_horizontal = dwt0_horizontal;
    k.dwt_vertical_s123 = dwt_vertical_s123;
    k.dwt_horizontal_s123 = dwt_horizontal_s123;
    k.dwt_vertical_s1 = dwt_vertical_s1;
    k.masking_row_s0 = masking_row_s0;
    k.masking_row_s123 = masking_row_s123;
    k.flat_sum_row_s0 = flat_sum_row_s0;
    k.flat_sum_row_s123 = flat_sum_row_s123;
    k.decouple_row_s0 = decouple_row_s0;
    k.decouple_row_s123 = decouple_row_s123;
    k.csf_row_s0 = csf_row_s0;
    k.csf_row_s123 = csf_row_s123;
    k.denominator_row_s0 = denominator_row_s0;
    k.denominator_row_s123 = denominator_row_s123;
    return k;
  }();
  return kSimd;
}

}  // namespace exactvq::adm::cpu
