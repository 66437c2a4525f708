#include "metrics/adm/csf.h"

#include "metrics/adm/definition.h"

namespace exactvq::adm {

// The per-sample definition is definition.h's, shared with the CUDA and OpenCL kernels.
void csf_row_s0(const int16_t* src, int begin, int end, uint16_t factor, int shift, int32_t round,
                int16_t* csf, int16_t* flt) {
  for (int j = begin; j < end; ++j) adm_csf_s0(src[j], factor, shift, round, csf + j, flt + j);
}

void csf_row_s123(const int32_t* src, int begin, int end, uint32_t factor, int32_t* csf,
                  int32_t* flt) {
  for (int j = begin; j < end; ++j) adm_csf_s123(src[j], factor, csf + j, flt + j);
}

}  // namespace exactvq::adm
