// ADM's contrast masking rows (masking.h) as Highway kernels. At scale 0 the
// threshold and the CSF-weighted value are int32 as in the reference (bounds
// there); the square and the cube, which need 64 bits, are made from the even
// and the odd int32 lanes in turn (MulEven), and the per-orientation sums are
// int64 lanes: every operation is the reference's integer operation, so any
// order gives its bits. Columns 0 and width - 1 (mirrored neighbours) and the
// tail past the vectors go through the reference itself.
#include <algorithm>
#include <type_traits>

#include "metrics/adm/cpu/adm_simd.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/adm/cpu/masking_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "metrics/adm/cpu/q32_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::adm::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using q32_lanes::OddLanesDown;
using q32_lanes::Weighted;

// SSSE3 lacks the signed 32x32 -> 64-bit multiply and 64-bit lane shifts;
// emulated, they make this kernel slower than the scalar reference, which runs
// there instead (as on one-lane targets).
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_SSSE3
// One-lane vectors cannot pair lanes into 64 bits: the reference is the kernel.
std::array<int64_t, 3> MaskingS0(const MaskingRows<int16_t>& rows, int width, int begin, int end,
                                 const uint16_t factor[3], const CubeShift& cube) {
  return adm::masking_row_s0(rows, width, begin, end, factor, cube);
}
std::array<int64_t, 3> MaskingS123(const MaskingRows<int32_t>& rows, int width, int begin, int end,
                                   const uint32_t factor[3], const CubeShift& cube) {
  return adm::masking_row_s123(rows, width, begin, end, factor, cube);
}
void FlatSumS0(OrientedRows<int16_t> flat, int width, int32_t* out) {
  adm::flat_sum_row_s0(flat, width, out);
}
void FlatSumS123(OrientedRows<int32_t> flat, int width, int32_t* out) {
  adm::flat_sum_row_s123(flat, width, out);
}
#else

using D32 = hn::ScalableTag<int32_t>;
using D64 = hn::Repartition<int64_t, D32>;
using V32 = hn::Vec<D32>;
using V64 = hn::Vec<D64>;

// The lanes' sum modulo 2^64, as the reference's wrapping row sums (a
// reduction intrinsic would add in signed int64).
int64_t WrappingSum(V64 v) {
  const hn::RebindToUnsigned<D64> du;
  uint64_t lanes[HWY_MAX_BYTES / sizeof(uint64_t)];
  hn::StoreU(hn::BitCast(du, v), du, lanes);
  uint64_t total = 0;
  for (size_t i = 0; i < hn::Lanes(du); ++i) total += lanes[i];
  return static_cast<int64_t>(total);
}

HWY_INLINE V32 Load16(D32 d, const int16_t* p, ptrdiff_t j) {
  return hn::PromoteTo(d, hn::LoadU(hn::Rebind<int16_t, D32>(), p + j));
}

// The int16 cast of an int32 lane: its low 16 bits, sign-extended.
HWY_INLINE V32 KeepInt16(V32 v) { return hn::ShiftRight<16>(hn::ShiftLeft<16>(v)); }

// (int32((x * x + square_round) >> square_shift) * x + cube_round) >> cube_shift
// for the even int32 lanes of x (x >= 0, so the square is non-negative).
HWY_INLINE V64 CubeEven(D32 d, V32 x, int square_shift, V64 square_round, int cube_shift,
                        V64 cube_round) {
  const hn::RebindToUnsigned<D64> du64;
  const V64 square = hn::Add(hn::MulEven(x, x), square_round);
  const V32 square32 = hn::BitCast(d, hn::ShiftRightSame(hn::BitCast(du64, square), square_shift));
  return hn::ShiftRightSame(hn::Add(hn::MulEven(square32, x), cube_round), cube_shift);
}

constexpr int kSquareShift[3] = {29, 29, 30};

// The 8 neighbours' total of the flattened rows' sums over the orientations
// (MaskingRows::flat_sum_*), modulo 2^32.
template <typename T>
HWY_INLINE V32 NeighbourSum(D32 d, const MaskingRows<T>& rows, ptrdiff_t j) {
  const int32_t* above = rows.flat_sum_above;
  const int32_t* row = rows.flat_sum_row;
  const int32_t* below = rows.flat_sum_below;
  const V32 top = hn::Add(hn::Add(hn::LoadU(d, above + j - 1), hn::LoadU(d, above + j)),
                          hn::LoadU(d, above + j + 1));
  const V32 middle = hn::Add(hn::LoadU(d, row + j - 1), hn::LoadU(d, row + j + 1));
  const V32 bottom = hn::Add(hn::Add(hn::LoadU(d, below + j - 1), hn::LoadU(d, below + j)),
                             hn::LoadU(d, below + j + 1));
  return hn::Add(hn::Add(top, middle), bottom);
}

// int16 lanes of two int16 halves of int32 lanes: the masker's rows read whole.
using D16x2 = hn::Repartition<int16_t, D32>;

// The centre terms int16((8738 |c| + 2048) >> 12) of int16 lanes c: with m =
// |c| <= 2^15 the value is floor((4368 m + 2^14) / 2^15) + 2m, the first part
// MulFixedPoint15(4368, m) and the sum kept modulo 2^16 as the int16 cast; m
// = 2^15 (c = -2^15, no int16 magnitude) gives 69904, i.e. 4368.
HWY_INLINE hn::Vec<D16x2> CentreTerms(D16x2 dw, hn::Vec<D16x2> c) {
  const auto m = hn::Abs(c);
  const auto weight = hn::Set(dw, int16_t{4368});
  const auto value = hn::Add(hn::Add(hn::MulFixedPoint15(weight, m), m), m);
  return hn::IfThenElse(hn::Eq(m, hn::Set(dw, int16_t{-32768})), weight, value);
}

// The masker's centre weight at scale 0 (Q12: definition.h's adm_threshold_part_s0).
static const volatile int32_t kCentreScale = 8738;

template <bool kSums>
std::array<int64_t, 3> MaskingRowS0(const MaskingRows<int16_t>& rows, int width, int begin, int end,
                                    const uint16_t factor[3], const CubeShift& cube) {
  const D32 d;
  const D64 d64;
  const hn::RebindToUnsigned<D64> du64;
  const ptrdiff_t lanes = ptrdiff_t(hn::Lanes(d));
  const int inner_begin = std::max(begin, 1), inner_end = std::min(end, width - 1);
  if (inner_end - inner_begin < lanes)
    return adm::masking_row_s0(rows, width, begin, end, factor, cube);

  // Named vectors, not arrays: SVE's vectors cannot be array elements.
  V64 sum0 = hn::Zero(d64), sum1 = hn::Zero(d64), sum2 = hn::Zero(d64);
  // Read at run time: as a known constant the compiler makes the product four
  // shifts and three adds, and this loop is bound by its count of operations.
  const V32 centre_scale = hn::Set(d, kCentreScale), centre_round = hn::Set(d, 2048);
  // The threshold's neighbours at `at`: the orientations' flattened rows, or their sums.
  const auto neighbours = [&](ptrdiff_t at) {
    if constexpr (kSums) return NeighbourSum(d, rows, at);
    V32 total = hn::Zero(d);
    for (int b = 0; b < 3; ++b) {
      const int16_t* above = rows.flat_above.band[b];
      const int16_t* row = rows.flat_row.band[b];
      const int16_t* below = rows.flat_below.band[b];
      const V32 top = hn::Add(hn::Add(Load16(d, above, at - 1), Load16(d, above, at)),
                              Load16(d, above, at + 1));
      const V32 middle = hn::Add(Load16(d, row, at - 1), Load16(d, row, at + 1));
      const V32 bottom = hn::Add(hn::Add(Load16(d, below, at - 1), Load16(d, below, at)),
                                 Load16(d, below, at + 1));
      total = hn::Add(total, hn::Add(hn::Add(top, middle), bottom));
    }
    return total;
  };
  // The cubes of columns at .. at + N - 1 added to the sums; with a mask `keep`
  // (kMasked), only its lanes': the others' excess is made 0, whose cube is 0.
  const auto add_cubes = [&](ptrdiff_t at, V32 threshold, auto masked, auto keep) {
    const auto band_cubes = [&](int b) {
      const V32 x = hn::Mul(Load16(d, rows.src.band[b], at), hn::Set(d, int32_t{factor[b]}));
      const V32 scaled_threshold =
          b == 2 ? hn::ShiftLeft<12>(threshold) : hn::ShiftLeft<10>(threshold);
      V32 excess = hn::Max(hn::Sub(hn::Abs(x), scaled_threshold), hn::Zero(d));
      if constexpr (decltype(masked)::value) excess = hn::IfThenElseZero(keep, excess);
      const V32 excess_odd = hn::BitCast(d, hn::ShiftRight<32>(hn::BitCast(du64, excess)));
      const V64 square_round = hn::Set(d64, int64_t{1} << (kSquareShift[b] - 1));
      const V64 cube_round = hn::Set(d64, cube.round[b]);
      const V64 even =
          CubeEven(d, excess, kSquareShift[b], square_round, cube.shift[b], cube_round);
      const V64 odd =
          CubeEven(d, excess_odd, kSquareShift[b], square_round, cube.shift[b], cube_round);
      return hn::Add(even, odd);
    };
    sum0 = hn::Add(sum0, band_cubes(0));
    sum1 = hn::Add(sum1, band_cubes(1));
    sum2 = hn::Add(sum2, band_cubes(2));
  };
  const auto all = hn::FirstN(d, size_t(lanes));  // unread where unmasked
  ptrdiff_t j = inner_begin;
  // 2N columns a step: the centre terms in int16 lanes, N at a time twice as many.
  const D16x2 dw;
  for (; j + 2 * lanes <= inner_end; j += 2 * lanes) {
    V32 lower = neighbours(j), upper = neighbours(j + lanes);
    for (int b = 0; b < 3; ++b) {
      const auto centre = CentreTerms(dw, hn::LoadU(dw, rows.masker.band[b] + j));
      lower = hn::Add(lower, hn::PromoteTo(d, hn::LowerHalf(centre)));
      upper = hn::Add(upper, hn::PromoteTo(d, hn::UpperHalf(hn::Half<D16x2>(), centre)));
    }
    add_cubes(j, lower, std::false_type(), all);
    add_cubes(j + lanes, upper, std::false_type(), all);
  }
  const auto threshold_at = [&](ptrdiff_t at) {
    V32 threshold = neighbours(at);
    for (int b = 0; b < 3; ++b) {
      const V32 centre = hn::Abs(Load16(d, rows.masker.band[b], at));
      const V32 centre_term =
          KeepInt16(hn::ShiftRight<12>(hn::Add(hn::Mul(centre, centre_scale), centre_round)));
      threshold = hn::Add(threshold, centre_term);
    }
    return threshold;
  };
  for (; j + lanes <= inner_end; j += lanes) add_cubes(j, threshold_at(j), std::false_type(), all);
  if (j < inner_end) {
    // The last columns in one vector ending at inner_end, its lanes before j
    // (summed already) kept out.
    const ptrdiff_t at = inner_end - lanes;
    add_cubes(at, threshold_at(at), std::true_type(), hn::Not(hn::FirstN(d, size_t(j - at))));
    j = inner_end;
  }
  std::array<int64_t, 3> out{WrappingSum(sum0), WrappingSum(sum1), WrappingSum(sum2)};
  // The mirrored edge columns, by the reference: integer sums of parts.
  const std::array<int64_t, 3> left =
      adm::masking_row_s0(rows, width, begin, inner_begin, factor, cube);
  const std::array<int64_t, 3> right = adm::masking_row_s0(rows, width, int(j), end, factor, cube);
  for (int b = 0; b < 3; ++b)
    out[b] = static_cast<int64_t>(static_cast<uint64_t>(out[b]) + static_cast<uint64_t>(left[b]) +
                                  static_cast<uint64_t>(right[b]));
  return out;
}

// ---- scales 1..3: int32 bands. The 64-bit products (the Q32 CSF factor
// times the value, the centre's Q32 weight times its magnitude) are MulEven
// of the even and the odd lanes in turn; the reference's casts keep the low
// 32 bits of each shifted product, which the even products' shift leaves in
// the low halves of their lanes and the odd ones are shifted up to the high
// halves, where OddEven takes them.

// int32((286331153 * |m| - 2^31) >> 32) in every lane (INT32_MIN kept
// negative, as abs32): the high halves of the products' lanes.
HWY_INLINE V32 CentreTerm(D32 d, V32 magnitude, V64 round) {
  const V32 weight = hn::Set(d, 286331153);
  const V64 even = hn::Add(hn::MulEven(magnitude, weight), round);
  const V64 odd = hn::Add(hn::MulEven(OddLanesDown(d, magnitude), weight), round);
  return hn::OddEven(hn::BitCast(d, odd), hn::BitCast(d, hn::ShiftRight<32>(even)));
}

template <bool kSums>
std::array<int64_t, 3> MaskingRowS123(const MaskingRows<int32_t>& rows, int width, int begin,
                                      int end, const uint32_t factor[3], const CubeShift& cube) {
  const D32 d;
  const D64 d64;
  const ptrdiff_t lanes = ptrdiff_t(hn::Lanes(d));
  const int inner_begin = std::max(begin, 1), inner_end = std::min(end, width - 1);
  if (inner_end - inner_begin < lanes)
    return adm::masking_row_s123(rows, width, begin, end, factor, cube);

  V64 sum0 = hn::Zero(d64), sum1 = hn::Zero(d64), sum2 = hn::Zero(d64);
  const V64 weight_round = hn::Set(d64, int64_t{1} << 27),
            centre_round = hn::Set(d64, kRoundBeforeShift32);
  const V64 square_round = hn::Set(d64, int64_t{1} << 29);
  // The cubes of columns at .. at + N - 1 added to the sums, as at scale 0.
  const auto add_cubes = [&](ptrdiff_t at, auto masked, auto keep) {
    V32 threshold = kSums ? NeighbourSum(d, rows, at) : hn::Zero(d);
    for (int b = 0; b < 3; ++b) {
      if constexpr (!kSums) {
        const int32_t* above = rows.flat_above.band[b];
        const int32_t* row = rows.flat_row.band[b];
        const int32_t* below = rows.flat_below.band[b];
        const V32 top = hn::Add(hn::Add(hn::LoadU(d, above + at - 1), hn::LoadU(d, above + at)),
                                hn::LoadU(d, above + at + 1));
        const V32 middle = hn::Add(hn::LoadU(d, row + at - 1), hn::LoadU(d, row + at + 1));
        const V32 bottom = hn::Add(hn::Add(hn::LoadU(d, below + at - 1), hn::LoadU(d, below + at)),
                                   hn::LoadU(d, below + at + 1));
        threshold = hn::Add(threshold, hn::Add(hn::Add(top, middle), bottom));
      }
      const V32 centre = hn::Abs(hn::LoadU(d, rows.masker.band[b] + at));
      threshold = hn::Add(threshold, CentreTerm(d, centre, centre_round));
    }
    const auto band_cubes = [&](int b) {
      const V64 cube_round = hn::Set(d64, cube.round[b]);
      const V32 src = hn::LoadU(d, rows.src.band[b] + at);
      const V32 x = Weighted(d, src, hn::Set(d, static_cast<int32_t>(factor[b])),
                             factor[b] >= 0x80000000u, weight_round);
      V32 excess = hn::Max(hn::Sub(hn::Abs(x), threshold), hn::Zero(d));
      if constexpr (decltype(masked)::value) excess = hn::IfThenElseZero(keep, excess);
      const V64 even = CubeEven(d, excess, 30, square_round, cube.shift[b], cube_round);
      const V64 odd =
          CubeEven(d, OddLanesDown(d, excess), 30, square_round, cube.shift[b], cube_round);
      return hn::Add(even, odd);
    };
    sum0 = hn::Add(sum0, band_cubes(0));
    sum1 = hn::Add(sum1, band_cubes(1));
    sum2 = hn::Add(sum2, band_cubes(2));
  };
  const auto all = hn::FirstN(d, size_t(lanes));  // unread where unmasked
  ptrdiff_t j = inner_begin;
  for (; j + lanes <= inner_end; j += lanes) add_cubes(j, std::false_type(), all);
  if (j < inner_end) {
    // The last columns in one vector ending at inner_end, its lanes before j
    // (summed already) kept out.
    const ptrdiff_t at = inner_end - lanes;
    add_cubes(at, std::true_type(), hn::Not(hn::FirstN(d, size_t(j - at))));
    j = inner_end;
  }
  std::array<int64_t, 3> out{WrappingSum(sum0), WrappingSum(sum1), WrappingSum(sum2)};
  const std::array<int64_t, 3> left =
      adm::masking_row_s123(rows, width, begin, inner_begin, factor, cube);
  const std::array<int64_t, 3> right =
      adm::masking_row_s123(rows, width, int(j), end, factor, cube);
  for (int b = 0; b < 3; ++b)
    out[b] = static_cast<int64_t>(static_cast<uint64_t>(out[b]) + static_cast<uint64_t>(left[b]) +
                                  static_cast<uint64_t>(right[b]));
  return out;
}

// The orientations' summed flattened rows where the driver gives them (one
// neighbourhood for the three), else each orientation's rows.
std::array<int64_t, 3> MaskingS0(const MaskingRows<int16_t>& rows, int width, int begin, int end,
                                 const uint16_t factor[3], const CubeShift& cube) {
  return rows.flat_sum_row ? MaskingRowS0<true>(rows, width, begin, end, factor, cube)
                           : MaskingRowS0<false>(rows, width, begin, end, factor, cube);
}
std::array<int64_t, 3> MaskingS123(const MaskingRows<int32_t>& rows, int width, int begin, int end,
                                   const uint32_t factor[3], const CubeShift& cube) {
  return rows.flat_sum_row ? MaskingRowS123<true>(rows, width, begin, end, factor, cube)
                           : MaskingRowS123<false>(rows, width, begin, end, factor, cube);
}

// flat_sum_row: the orientations' flattened rows summed in int32 lanes (wrapping).
template <typename T>
void FlatSum(OrientedRows<T> flat, int width, int32_t* HWY_RESTRICT out) {
  const D32 d;
  const ptrdiff_t lanes = ptrdiff_t(hn::Lanes(d));
  const auto load = [&](const T* p, ptrdiff_t j) {
    if constexpr (sizeof(T) == 2)
      return Load16(d, p, j);
    else
      return hn::LoadU(d, p + j);
  };
  ptrdiff_t j = 0;
  for (; j + lanes <= width; j += lanes)
    hn::StoreU(
        hn::Add(hn::Add(load(flat.band[0], j), load(flat.band[1], j)), load(flat.band[2], j)), d,
        out + j);
  if (j < width) {
    const OrientedRows<T> tail{{flat.band[0] + j, flat.band[1] + j, flat.band[2] + j}};
    adm::flat_sum_row(tail, width - int(j), out + j);
  }
}
void FlatSumS0(OrientedRows<int16_t> flat, int width, int32_t* out) { FlatSum(flat, width, out); }
void FlatSumS123(OrientedRows<int32_t> flat, int width, int32_t* out) { FlatSum(flat, width, out); }

#endif  // HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_SSSE3

}  // namespace exactvq::adm::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::adm::cpu {

HWY_EXPORT(MaskingS0);
HWY_EXPORT(MaskingS123);
HWY_EXPORT(FlatSumS0);
HWY_EXPORT(FlatSumS123);

std::array<int64_t, 3> masking_row_s0(const MaskingRows<int16_t>& rows, int width, int begin,
                                      int end, const uint16_t factor[3], const CubeShift& cube) {
  return HWY_DYNAMIC_DISPATCH(MaskingS0)(rows, width, begin, end, factor, cube);
}
std::array<int64_t, 3> masking_row_s123(const MaskingRows<int32_t>& rows, int width, int begin,
                                        int end, const uint32_t factor[3], const CubeShift& cube) {
  return HWY_DYNAMIC_DISPATCH(MaskingS123)(rows, width, begin, end, factor, cube);
}
void flat_sum_row_s0(OrientedRows<int16_t> flat, int width, int32_t* out) {
  HWY_DYNAMIC_DISPATCH(FlatSumS0)(flat, width, out);
}
void flat_sum_row_s123(OrientedRows<int32_t> flat, int width, int32_t* out) {
  HWY_DYNAMIC_DISPATCH(FlatSumS123)(flat, width, out);
}

}  // namespace exactvq::adm::cpu
#endif  // HWY_ONCE
