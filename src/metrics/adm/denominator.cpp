#include "metrics/adm/denominator.h"

namespace exactvq::adm {

namespace {

uint32_t magnitude(int32_t v) { return v < 0 ? 0u - static_cast<uint32_t>(v) : static_cast<uint32_t>(v); }

constexpr int kSquareShift[3] = {31, 30, 31};

}  // namespace

std::array<uint64_t, 3> denominator_row_s0(OrientedRows<int16_t> ref, int begin, int end) {
  std::array<uint64_t, 3> sums{0, 0, 0};
  for (int b = 0; b < 3; ++b)
    for (int j = begin; j < end; ++j) {
      const uint64_t m = static_cast<uint16_t>(magnitude(ref.band[b][j]));
      sums[b] += m * m * m;
    }
  return sums;
}

std::array<uint64_t, 3> denominator_row_s123(OrientedRows<int32_t> ref, int begin, int end, int scale,
                                             int cube_shift, uint64_t cube_round) {
  const int q = kSquareShift[scale - 1];
  const uint64_t square_round = uint64_t{1} << q;
  std::array<uint64_t, 3> sums{0, 0, 0};
  for (int b = 0; b < 3; ++b)
    for (int j = begin; j < end; ++j) {
      const uint64_t m = magnitude(ref.band[b][j]);
      sums[b] += ((((m * m) + square_round) >> q) * m + cube_round) >> cube_shift;
    }
  return sums;
}

}  // namespace exactvq::adm
