// The SSE of a plane as a Highway kernel, the twin of sse_reference.cpp; every
// target Highway offers is compiled in and the best one runs (cpu/CMakeLists.txt).
// All sums are integers in lanes that provably do not overflow, so the total is
// the reference's bit for bit on every target.
#include "metrics/psnr/sse.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/psnr/cpu/sse_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::psnr::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// 8 bits: differences in int16 lanes, squares added pairwise into int32 lanes,
// across rows. At most kChunk8 samples, whose squares add up to at most
// kChunk8 * 255^2 < 2^31, go into the int32 lanes before they are moved into
// the 64-bit sum, so neither a lane nor the lanes' total overflows, whatever
// the vector width.
constexpr size_t kChunk8 = 16384;

#if HWY_TARGET == HWY_SCALAR
// One-lane vectors cannot widen or split lanes: the plain loops are the kernel.
uint64_t SseRows8(const uint8_t* ref, ptrdiff_t ref_stride, const uint8_t* dist,
                  ptrdiff_t dist_stride, size_t width, size_t rows) {
  const PlaneView r{ref, ref_stride, int(width), int(rows), 1};
  const PlaneView d{dist, dist_stride, int(width), int(rows), 1};
  return sse_reference(r, d, 0, int(rows));
}
uint64_t SseRows16(const uint16_t* ref, ptrdiff_t ref_stride, const uint16_t* dist,
                   ptrdiff_t dist_stride, size_t width, size_t rows) {
  const PlaneView r{reinterpret_cast<const uint8_t*>(ref), ref_stride * 2, int(width), int(rows),
                    2};
  const PlaneView d{reinterpret_cast<const uint8_t*>(dist), dist_stride * 2, int(width), int(rows),
                    2};
  return sse_reference(r, d, 0, int(rows));
}
#else

uint64_t SseRows8(const uint8_t* ref, ptrdiff_t ref_stride, const uint8_t* dist,
                  ptrdiff_t dist_stride, size_t width, size_t rows) {
  const hn::ScalableTag<int16_t> d16;
  const hn::Rebind<uint8_t, decltype(d16)> d8;
  const hn::Repartition<int32_t, decltype(d16)> d32;
  const size_t lanes = hn::Lanes(d16);
  auto sum0 = hn::Zero(d32), sum1 = hn::Zero(d32), sum2 = hn::Zero(d32), sum3 = hn::Zero(d32);
  size_t pending = 0;  // samples in the four sums, at most kChunk8
  uint64_t total = 0;
  const auto flush = [&] {
    const auto all = hn::Add(hn::Add(sum0, sum1), hn::Add(sum2, sum3));
    total += uint64_t(hn::GetLane(hn::SumOfLanes(d32, all)));
    sum0 = sum1 = sum2 = sum3 = hn::Zero(d32);
    pending = 0;
  };
  for (size_t y = 0; y < rows; ++y) {
    const uint8_t* r = ref + ptrdiff_t(y) * ref_stride;
    const uint8_t* d = dist + ptrdiff_t(y) * dist_stride;
    size_t x = 0;
    while (x + lanes <= width) {
      if (pending + lanes > kChunk8) flush();
      const size_t room = kChunk8 - pending;
      const size_t end = width - x > room ? x + room : width;
      const size_t start = x;
      // Two independent sums per step, so the additions do not wait on each other.
      for (; x + 2 * lanes <= end; x += 2 * lanes) {
        const auto e = hn::Sub(hn::PromoteTo(d16, hn::LoadU(d8, r + x)),
                               hn::PromoteTo(d16, hn::LoadU(d8, d + x)));
        const auto f = hn::Sub(hn::PromoteTo(d16, hn::LoadU(d8, r + x + lanes)),
                               hn::PromoteTo(d16, hn::LoadU(d8, d + x + lanes)));
        sum0 = hn::ReorderWidenMulAccumulate(d32, e, e, sum0, sum1);
        sum2 = hn::ReorderWidenMulAccumulate(d32, f, f, sum2, sum3);
      }
      for (; x + lanes <= end; x += lanes) {
        const auto e = hn::Sub(hn::PromoteTo(d16, hn::LoadU(d8, r + x)),
                               hn::PromoteTo(d16, hn::LoadU(d8, d + x)));
        sum0 = hn::ReorderWidenMulAccumulate(d32, e, e, sum0, sum1);
      }
      pending += x - start;
    }
    uint32_t tail = 0;
    for (; x < width; ++x) {
      const int e = int(r[x]) - int(d[x]);
      tail += uint32_t(e * e);
    }
    total += tail;
  }
  flush();
  return total;
}

// 9 to 16 bits: |difference| and its square in uint32 lanes (below 2^32),
// the even and odd uint32 lanes added into uint64 lanes.
uint64_t SseRows16(const uint16_t* ref, ptrdiff_t ref_stride, const uint16_t* dist,
                   ptrdiff_t dist_stride, size_t width, size_t rows) {
  const hn::ScalableTag<uint32_t> d32;
  const hn::Rebind<uint16_t, decltype(d32)> d16;
  const hn::Repartition<uint64_t, decltype(d32)> d64;
  const size_t lanes = hn::Lanes(d32);
  const auto low32 = hn::Set(d64, uint64_t{0xFFFFFFFF});
  auto acc = hn::Zero(d64);
  uint64_t total = 0;
  for (size_t y = 0; y < rows; ++y) {
    const uint16_t* r = ref + ptrdiff_t(y) * ref_stride;
    const uint16_t* d = dist + ptrdiff_t(y) * dist_stride;
    size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      const auto a = hn::PromoteTo(d32, hn::LoadU(d16, r + x));
      const auto b = hn::PromoteTo(d32, hn::LoadU(d16, d + x));
      const auto e = hn::Sub(hn::Max(a, b), hn::Min(a, b));
      const auto sq = hn::BitCast(d64, hn::Mul(e, e));
      acc = hn::Add(acc, hn::Add(hn::And(sq, low32), hn::ShiftRight<32>(sq)));
    }
    for (; x < width; ++x) {
      const uint32_t e = r[x] > d[x] ? uint32_t(r[x] - d[x]) : uint32_t(d[x] - r[x]);
      total += uint64_t{e * e};
    }
  }
  return total + hn::GetLane(hn::SumOfLanes(d64, acc));
}

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace exactvq::psnr::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::psnr {

HWY_EXPORT(SseRows8);
HWY_EXPORT(SseRows16);

uint64_t sse(const PlaneView& ref, const PlaneView& dist, int y0, int y1) {
  if (y1 <= y0) return 0;
  const size_t rows = size_t(y1 - y0);
  if (ref.bytes_per_sample == 1)
    return HWY_DYNAMIC_DISPATCH(SseRows8)(ref.row<uint8_t>(y0), ref.stride, dist.row<uint8_t>(y0),
                                          dist.stride, size_t(ref.width), rows);
  return HWY_DYNAMIC_DISPATCH(SseRows16)(ref.row<uint16_t>(y0), ref.stride / 2,
                                         dist.row<uint16_t>(y0), dist.stride / 2, size_t(ref.width),
                                         rows);
}

}  // namespace exactvq::psnr
#endif  // HWY_ONCE
