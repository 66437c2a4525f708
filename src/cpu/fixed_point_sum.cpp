// The `exact` sum (spec/ssim.md) as a Highway kernel: each term rounded to the
// 2^-64 fixed point in integer lanes, straight from its sign, exponent and
// significand (as ssim::to_fixed64 does), and added as integers.
//
// A term q = round_half_even(term * 2^64) spans up to 81 bits (|term| <= 2^17),
// so each lane splits |q| into three pieces, lo (bits 0-31), mid (32-63) and
// hi (64 and up), each below 2^32, and adds them with q's sign into three
// 64-bit accumulators; the row's total, lo + mid * 2^32 + hi * 2^64, is formed
// in 128 bits once at the end. Integer sums: any order gives the same bits.
#include "cpu/ssim_kernels.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/fixed_point_sum.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

ssim::int128 FixedSum(const double* HWY_RESTRICT terms, size_t n) {
  const hn::ScalableTag<double> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  const hn::RebindToSigned<decltype(df)> di;
  const size_t lanes = hn::Lanes(df);
  const auto zero_i = hn::Zero(di);
  const auto one = hn::Set(du, 1);
  const auto low32 = hn::Set(du, 0xffffffffull);
  const auto fraction_mask = hn::Set(du, (uint64_t{1} << 52) - 1);
  const auto hidden_bit = hn::Set(du, uint64_t{1} << 52);
  auto acc_lo = zero_i, acc_mid = zero_i, acc_hi = zero_i;

  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto bits = hn::BitCast(du, hn::LoadU(df, terms + i));
    const auto biased = hn::And(hn::ShiftRight<52>(bits), hn::Set(du, 0x7ff));
    // term = significand * 2^(biased - 1075), so q = significand * 2^shift rounded.
    const auto significand = hn::Or(hn::And(bits, fraction_mask),
                                    hn::IfThenElseZero(hn::Ne(biased, hn::Zero(du)), hidden_bit));
    const auto shift = hn::Sub(hn::BitCast(di, biased), hn::Set(di, 1075 - 64));
    // Exactly one of left, right is non-zero; right >= 63 leaves nothing (as does 55..62).
    const auto left = hn::BitCast(du, hn::Max(shift, zero_i));
    const auto right = hn::BitCast(du, hn::Min(hn::Max(hn::Neg(shift), zero_i), hn::Set(di, 63)));
    const auto truncated = hn::Shr(hn::Shl(significand, left), right);  // bits 0-63 of q, unrounded
    // Round half to even: up when rest > half, or rest == half and q is odd.
    const auto unit = hn::Shl(one, right);
    const auto rest = hn::And(significand, hn::Sub(unit, one));
    const auto half = hn::ShiftRight<1>(unit);
    const auto round_up =
        hn::And(hn::Gt(hn::BitCast(di, hn::Add(rest, hn::And(truncated, one))), hn::BitCast(di, half)),
                hn::Ne(hn::BitCast(di, right), zero_i));
    const auto low64 = hn::Sub(truncated, hn::BitCast(du, hn::VecFromMask(di, round_up)));
    // Bits 64 and up: significand >> (64 - shift) when shift > 0, else nothing.
    const auto hi_shift =
        hn::BitCast(du, hn::Min(hn::Sub(hn::Set(di, 64), shift), hn::Set(di, 63)));
    const auto hi = hn::BitCast(di, hn::Shr(significand, hi_shift));
    const auto lo = hn::BitCast(di, hn::And(low64, low32));
    const auto mid = hn::BitCast(di, hn::ShiftRight<32>(low64));
    // Negative terms: add -piece, as (piece ^ -1) - (-1).
    const auto negative = hn::VecFromMask(di, hn::Lt(hn::BitCast(di, bits), zero_i));
    acc_lo = hn::Add(acc_lo, hn::Sub(hn::Xor(lo, negative), negative));
    acc_mid = hn::Add(acc_mid, hn::Sub(hn::Xor(mid, negative), negative));
    acc_hi = hn::Add(acc_hi, hn::Sub(hn::Xor(hi, negative), negative));
  }
  HWY_ALIGN int64_t lo[hn::MaxLanes(di)], mid[hn::MaxLanes(di)], hi[hn::MaxLanes(di)];
  hn::Store(acc_lo, di, lo);
  hn::Store(acc_mid, di, mid);
  hn::Store(acc_hi, di, hi);
  ssim::int128 sum = 0;
  for (size_t l = 0; l < lanes; ++l)
    sum += ssim::int128{lo[l]} + ssim::int128{mid[l]} * (ssim::int128{1} << 32) +
           ssim::int128{hi[l]} * (ssim::int128{1} << 64);
  for (; i < n; ++i) sum += ssim::to_fixed64(terms[i]);
  return sum;
}

}  // namespace exactvq::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::cpu {

HWY_EXPORT(FixedSum);

ssim::int128 fixed_point_sum(const double* terms, size_t n) {
  return HWY_DYNAMIC_DISPATCH(FixedSum)(terms, n);
}

}  // namespace exactvq::cpu
#endif  // HWY_ONCE
