#include "metrics/adm/masking.h"

#include "metrics/adm/definition.h"

namespace exactvq::adm {

namespace {

int left_of(int j) { return j == 0 ? 1 : j - 1; }
int right_of(int j, int width) { return j == width - 1 ? width - 1 : j + 1; }

template <typename T>
int32_t neighbour_sum(const T* above, const T* row, const T* below, int jl, int j, int jr) {
  return adm_neighbour_sum(above[jl], above[j], above[jr], row[jl], row[jr], below[jl], below[j],
                           below[jr]);
}

}  // namespace

// The per-sample terms are definition.h's, shared with the CUDA and OpenCL kernels.
std::array<int64_t, 3> masking_row_s0(const MaskingRows<int16_t>& rows, int width, int begin,
                                      int end, const uint16_t factor[3], const CubeShift& cube) {
  std::array<int64_t, 3> sums{0, 0, 0};
  for (int j = begin; j < end; ++j) {
    const int jl = left_of(j), jr = right_of(j, width);
    int32_t threshold = 0;
    for (int b = 0; b < 3; ++b)
      threshold += adm_threshold_part_s0(
          rows.masker.band[b][j], neighbour_sum(rows.flat_above.band[b], rows.flat_row.band[b],
                                                rows.flat_below.band[b], jl, j, jr));
    for (int b = 0; b < 3; ++b)
      sums[b] =
          adm_wrapping_add(sums[b], adm_masking_term_s0(rows.src.band[b][j], factor[b], threshold,
                                                        b, cube.shift[b], cube.round[b]));
  }
  return sums;
}

std::array<int64_t, 3> masking_row_s123(const MaskingRows<int32_t>& rows, int width, int begin,
                                        int end, const uint32_t factor[3], const CubeShift& cube) {
  std::array<int64_t, 3> sums{0, 0, 0};
  for (int j = begin; j < end; ++j) {
    const int jl = left_of(j), jr = right_of(j, width);
    uint32_t threshold = 0;  // int32 in libvmaf; summed modulo 2^32 here to stay defined
    for (int b = 0; b < 3; ++b)
      threshold += adm_threshold_part_s123(
          rows.masker.band[b][j], neighbour_sum(rows.flat_above.band[b], rows.flat_row.band[b],
                                                rows.flat_below.band[b], jl, j, jr));
    for (int b = 0; b < 3; ++b)
      sums[b] =
          adm_wrapping_add(sums[b], adm_masking_term_s123(rows.src.band[b][j], factor[b], threshold,
                                                          cube.shift[b], cube.round[b]));
  }
  return sums;
}

}  // namespace exactvq::adm
