#include "metrics/adm/masking.h"

#include "metrics/adm/csf.h"

namespace exactvq::adm {

namespace {

int left_of(int j) { return j == 0 ? 1 : j - 1; }
int right_of(int j, int width) { return j == width - 1 ? width - 1 : j + 1; }

// The 8 flattened neighbours of (i, j) in one orientation; int32 as libvmaf's,
// modulo 2^32 where extreme int32 bands would overflow it.
template <typename T>
int32_t neighbour_sum(const T* above, const T* row, const T* below, int jl, int j, int jr) {
  const int64_t sum = int64_t{above[jl]} + above[j] + above[jr] + row[jl] + row[jr] + below[jl] +
                      below[j] + below[jr];
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(sum)));
}

// The cube of max(|x| - threshold, 0) in fixed point, as libvmaf rounds it:
// square rounded and shifted (kept in int32), times |x| again, rounded and shifted.
int64_t cube_term(int32_t x_abs_minus_thr, int square_shift, int64_t square_round, int cube_shift,
                  int64_t cube_round) {
  const int32_t x = x_abs_minus_thr < 0 ? 0 : x_abs_minus_thr;
  const int32_t sq = static_cast<int32_t>((int64_t{x} * x + square_round) >> square_shift);
  return (int64_t{sq} * x + cube_round) >> cube_shift;
}

// |v| for int32 as C's abs on two's complement (INT32_MIN stays INT32_MIN).
int32_t abs32(int32_t v) { return v < 0 ? static_cast<int32_t>(0u - static_cast<uint32_t>(v)) : v; }

// a + b modulo 2^64: libvmaf's int64 row sums, defined where extreme rows would overflow.
int64_t wrapping_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

// a - b modulo 2^32.
int32_t sub32(int64_t a, int64_t b) { return static_cast<int32_t>(static_cast<uint64_t>(a - b)); }

constexpr int kSquareShiftS0[3] = {29, 29, 30};
constexpr int64_t kSquareRoundS0[3] = {int64_t{1} << 28, int64_t{1} << 28, int64_t{1} << 29};
constexpr int kThresholdShiftS0[3] = {10, 10, 12};

}  // namespace

std::array<int64_t, 3> masking_row_s0(const MaskingRows<int16_t>& rows, int width, int begin, int end,
                                      const uint16_t factor[3], const CubeShift& cube) {
  std::array<int64_t, 3> sums{0, 0, 0};
  for (int j = begin; j < end; ++j) {
    const int jl = left_of(j), jr = right_of(j, width);
    int32_t threshold = 0;
    for (int b = 0; b < 3; ++b) {
      const int32_t centre = rows.masker.band[b][j];
      const int16_t centre_term =
          static_cast<int16_t>((8738 * (centre < 0 ? -centre : centre) + 2048) >> 12);
      threshold += neighbour_sum(rows.flat_above.band[b], rows.flat_row.band[b],
                                 rows.flat_below.band[b], jl, j, jr) +
                   centre_term;
    }
    for (int b = 0; b < 3; ++b) {
      const int32_t x = int32_t{rows.src.band[b][j]} * int32_t{factor[b]};  // < 2^31: no overflow
      const int32_t diff = sub32(abs32(x), int64_t{threshold} * (int64_t{1} << kThresholdShiftS0[b]));
      sums[b] = wrapping_add(sums[b], cube_term(diff, kSquareShiftS0[b], kSquareRoundS0[b], cube.shift[b], cube.round[b]));
    }
  }
  return sums;
}

std::array<int64_t, 3> masking_row_s123(const MaskingRows<int32_t>& rows, int width, int begin,
                                        int end, const uint32_t factor[3], const CubeShift& cube) {
  std::array<int64_t, 3> sums{0, 0, 0};
  for (int j = begin; j < end; ++j) {
    const int jl = left_of(j), jr = right_of(j, width);
    uint32_t threshold = 0;  // int32 in libvmaf; summed modulo 2^32 here to stay defined
    for (int b = 0; b < 3; ++b) {
      const int64_t centre = abs32(rows.masker.band[b][j]);
      const int32_t centre_term =
          static_cast<int32_t>((int64_t{286331153} * centre + kRoundBeforeShift32) >> 32);
      const int32_t sum = static_cast<int32_t>(
          static_cast<uint32_t>(neighbour_sum(rows.flat_above.band[b], rows.flat_row.band[b],
                                              rows.flat_below.band[b], jl, j, jr)) +
          static_cast<uint32_t>(centre_term));
      threshold += static_cast<uint32_t>(sum);
    }
    for (int b = 0; b < 3; ++b) {
      const int32_t x = static_cast<int32_t>(
          (int64_t{rows.src.band[b][j]} * int64_t{factor[b]} + (int64_t{1} << 27)) >> 28);
      const int32_t diff = sub32(abs32(x), static_cast<int32_t>(threshold));
      sums[b] = wrapping_add(sums[b], cube_term(diff, 30, int64_t{1} << 29, cube.shift[b], cube.round[b]));
    }
  }
  return sums;
}

}  // namespace exactvq::adm
