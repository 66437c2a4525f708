#include "metrics/adm/decouple.h"

#include <bit>

#include "metrics/adm/pixel.h"

namespace exactvq::adm {

// The SIMD twins take these from decouple.h, the reference, CUDA and OpenCL from definition.h.
static_assert(kCosOneDegreeSquared == EXACTVQ_ADM_COS_ONE_DEGREE_SQUARED);
// softfp's copy of it (OpenCL) is its binary64 pattern.
static_assert(std::bit_cast<uint64_t>(double{EXACTVQ_ADM_COS_ONE_DEGREE_SQUARED}) ==
              EXACTVQ_ADM_COS_ONE_DEGREE_SQUARED_BITS);

namespace {

struct ReciprocalTable {
  int32_t entry[65537] = {};
  ReciprocalTable() {
    for (int i = 1; i <= 32768; ++i) {
      const int32_t q = (int32_t{1} << 30) / i;
      entry[32768 + i] = q;
      entry[32768 - i] = -q;
    }
  }
};

}  // namespace

const int32_t* reciprocal_table() {
  static const ReciprocalTable table;
  return table.entry;
}

// The per-sample definition is pixel.h's (definition.h's with native binary64), shared with CUDA.
void decouple_row_s0(OrientedRows<int16_t> ref, OrientedRows<int16_t> dis, int begin, int end,
                     double gain_limit, OrientedRowsOut<int16_t> restored,
                     OrientedRowsOut<int16_t> additive) {
  for (int j = begin; j < end; ++j) {
    const int16_t o[3] = {ref.band[0][j], ref.band[1][j], ref.band[2][j]};
    const int16_t t[3] = {dis.band[0][j], dis.band[1][j], dis.band[2][j]};
    int16_t r[3], a[3];
    pixel::decouple_s0(o, t, gain_limit, r, a);
    for (int b = 0; b < 3; ++b) {
      restored.band[b][j] = r[b];
      additive.band[b][j] = a[b];
    }
  }
}

void decouple_row_s123(OrientedRows<int32_t> ref, OrientedRows<int32_t> dis, int begin, int end,
                       double gain_limit, OrientedRowsOut<int32_t> restored,
                       OrientedRowsOut<int32_t> additive) {
  for (int j = begin; j < end; ++j) {
    const int32_t o[3] = {ref.band[0][j], ref.band[1][j], ref.band[2][j]};
    const int32_t t[3] = {dis.band[0][j], dis.band[1][j], dis.band[2][j]};
    int32_t r[3], a[3];
    pixel::decouple_s123(o, t, gain_limit, r, a);
    for (int b = 0; b < 3; ++b) {
      restored.band[b][j] = r[b];
      additive.band[b][j] = a[b];
    }
  }
}

}  // namespace exactvq::adm
