#include "metrics/adm/denominator.h"

#include "metrics/adm/definition.h"

namespace exactvq::adm {

// The per-sample terms are definition.h's, shared with the CUDA and OpenCL kernels.
std::array<uint64_t, 3> denominator_row_s0(OrientedRows<int16_t> ref, int begin, int end) {
  std::array<uint64_t, 3> sums{0, 0, 0};
  for (int b = 0; b < 3; ++b)
    for (int j = begin; j < end; ++j) sums[b] += adm_denominator_term_s0(ref.band[b][j]);
  return sums;
}

std::array<uint64_t, 3> denominator_row_s123(OrientedRows<int32_t> ref, int begin, int end,
                                             int scale, int cube_shift, uint64_t cube_round) {
  const int q = adm_denominator_square_shift(scale);
  std::array<uint64_t, 3> sums{0, 0, 0};
  for (int b = 0; b < 3; ++b)
    for (int j = begin; j < end; ++j)
      sums[b] += adm_denominator_term_s123(ref.band[b][j], q, cube_shift, cube_round);
  return sums;
}

}  // namespace exactvq::adm
