// Motion's SAD as a Highway kernel, the twin of sad_reference.cpp; every target
// Highway offers is compiled in and the best one runs. All arithmetic is in
// integers whose lanes provably do not overflow, so the sum is the
// reference's bit for bit on every target.
#include <cstdlib>
#include <vector>

#include "metrics/motion/sad.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/motion/cpu/sad_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::motion::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D32 = hn::ScalableTag<int32_t>;

// The symmetric 5-tap filter: t0 (v0 + v4) + t1 (v1 + v3) + t2 v2.
HWY_INLINE hn::Vec<D32> Filter5(D32 d, hn::Vec<D32> v0, hn::Vec<D32> v1, hn::Vec<D32> v2,
                                hn::Vec<D32> v3, hn::Vec<D32> v4) {
  const auto outer = hn::Mul(hn::Add(v0, v4), hn::Set(d, kTap[0]));
  const auto inner = hn::Mul(hn::Add(v1, v3), hn::Set(d, kTap[1]));
  return hn::Add(hn::Add(outer, inner), hn::Mul(v2, hn::Set(d, kTap[2])));
}

template <typename Sample>
HWY_INLINE hn::Vec<D32> LoadDifference(D32 d, const Sample* p, const Sample* c, size_t x) {
  const hn::Rebind<Sample, D32> ds;
  return hn::Sub(hn::BitCast(d, hn::PromoteTo(hn::Rebind<uint32_t, D32>(), hn::LoadU(ds, p + x))),
                 hn::BitCast(d, hn::PromoteTo(hn::Rebind<uint32_t, D32>(), hn::LoadU(ds, c + x))));
}

// Vertical blur of prev - cur for one row into `out` (w values). Below 16
// bits each |difference| < 2^15 and the taps sum to 2^16, so the sum fits in
// int32; at 16 bits it may reach 2^32 and is made in int64 lanes (scalar here:
// 16-bit video is rare, the rows below are what matter).
template <typename Sample>
void VerticalBlur(const Sample* const p[kTaps], const Sample* const c[kTaps], int w, int bitdepth,
                  int32_t* HWY_RESTRICT out) {
  const D32 d;
  const size_t lanes = hn::Lanes(d);
  const int32_t round = int32_t{1} << (bitdepth - 1);
  size_t x = 0;
  if (bitdepth < 16) {
    const auto r = hn::Set(d, round);
    for (; x + lanes <= size_t(w); x += lanes) {
      const auto sum = Filter5(d, LoadDifference(d, p[0], c[0], x),
                               LoadDifference(d, p[1], c[1], x), LoadDifference(d, p[2], c[2], x),
                               LoadDifference(d, p[3], c[3], x), LoadDifference(d, p[4], c[4], x));
      hn::StoreU(hn::ShiftRightSame(hn::Add(sum, r), bitdepth), d, out + x);
    }
  }
  for (; x < size_t(w); ++x) {
    int64_t sum = 0;
    for (int k = 0; k < kTaps; ++k) sum += int64_t{kTap[k]} * (int32_t(p[k][x]) - int32_t(c[k][x]));
    out[x] = int32_t((sum + round) >> bitdepth);
  }
}

// Sum over one row of |(horizontal blur of b + 2^15) >> 16|, b the vertical
// blur with two mirrored samples each side (b[-2] .. b[w + 1]) and room for a
// vector past the end. |b| < 2^16, so the full sum may reach 2^32: it is
// split as b = 256 hi + lo (lo in [0, 255]) and the two filtered halves,
// each below 2^24, recombined with nested floor divisions:
// (256 H + L + 2^15) >> 16 = (H + ((L + 2^15) >> 8)) >> 8.
uint32_t HorizontalSad(const int32_t* b, int w) {
  const D32 d;
  const size_t lanes = hn::Lanes(d);
  const auto low_mask = hn::Set(d, 255);
  const auto round = hn::Set(d, 1 << 15);
  auto acc = hn::Zero(d);
  for (size_t x = 0; x < size_t(w); x += lanes) {
    // Named vectors, not arrays: SVE's vectors cannot be array elements.
    const int32_t* at = b + ptrdiff_t(x) - kRadius;
    const auto v0 = hn::LoadU(d, at), v1 = hn::LoadU(d, at + 1), v2 = hn::LoadU(d, at + 2);
    const auto v3 = hn::LoadU(d, at + 3), v4 = hn::LoadU(d, at + 4);
    const auto sum_hi =
        Filter5(d, hn::ShiftRight<8>(v0), hn::ShiftRight<8>(v1), hn::ShiftRight<8>(v2),
                hn::ShiftRight<8>(v3), hn::ShiftRight<8>(v4));
    const auto sum_lo =
        Filter5(d, hn::And(v0, low_mask), hn::And(v1, low_mask), hn::And(v2, low_mask),
                hn::And(v3, low_mask), hn::And(v4, low_mask));
    const auto value =
        hn::ShiftRight<8>(hn::Add(sum_hi, hn::ShiftRight<8>(hn::Add(sum_lo, round))));
    const auto magnitude = hn::Abs(value);
    const size_t left = size_t(w) - x;
    acc = hn::Add(acc,
                  left >= lanes ? magnitude : hn::IfThenElseZero(hn::FirstN(d, left), magnitude));
  }
  // Lanes and their total wrap modulo 2^32, as the reference's uint32 row sum.
  const hn::RebindToUnsigned<D32> du;
  // Lane by lane modulo 2^32, as the reference's uint32 row sum (a reduction
  // intrinsic would add in signed int).
  uint32_t each[HWY_MAX_BYTES / sizeof(uint32_t)];
  hn::StoreU(hn::BitCast(du, acc), du, each);
  uint32_t total = 0;
  for (size_t i = 0; i < hn::Lanes(du); ++i) total += each[i];
  return total;
}

template <typename Sample>
uint64_t SadRows(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  const int w = cur.width;
  const size_t lanes = hn::Lanes(D32());
  // kRadius mirrored samples before the row, kRadius after, then a vector's room.
  std::vector<int32_t> padded(size_t(w) + 2 * kRadius + lanes, 0);
  int32_t* blurred = padded.data() + kRadius;
  uint64_t sad = 0;
  for (int y = y0; y < y1; ++y) {
    const Sample* p[kTaps];
    const Sample* c[kTaps];
    tap_rows(prev, cur, y, p, c);
    VerticalBlur(p, c, w, bitdepth, blurred);
    for (int k = 1; k <= kRadius; ++k) {
      blurred[-k] = blurred[mirror_index(-k, w)];
      blurred[w - 1 + k] = blurred[mirror_index(w - 1 + k, w)];
    }
    sad += HorizontalSad(blurred, w);
  }
  return sad;
}

#if HWY_TARGET == HWY_SCALAR
// One lane: the scalar reference is the faster kernel.
uint64_t Sad8(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  return sad_reference(prev, cur, bitdepth, y0, y1);
}
uint64_t Sad16(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  return sad_reference(prev, cur, bitdepth, y0, y1);
}
#else
uint64_t Sad8(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  return SadRows<uint8_t>(prev, cur, bitdepth, y0, y1);
}
uint64_t Sad16(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  return SadRows<uint16_t>(prev, cur, bitdepth, y0, y1);
}
#endif

}  // namespace exactvq::motion::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::motion {

HWY_EXPORT(Sad8);
HWY_EXPORT(Sad16);

uint64_t sad(const PlaneView& prev, const PlaneView& cur, int bitdepth, int y0, int y1) {
  if (y1 <= y0) return 0;
  return cur.bytes_per_sample == 1 ? HWY_DYNAMIC_DISPATCH(Sad8)(prev, cur, bitdepth, y0, y1)
                                   : HWY_DYNAMIC_DISPATCH(Sad16)(prev, cur, bitdepth, y0, y1);
}

}  // namespace exactvq::motion
#endif  // HWY_ONCE
