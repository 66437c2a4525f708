// Vertical moments (spec/ssim.md step 2) as a Highway kernel: the nine-tap
// filter down the column, over the rows' horizontal moments; taps whose row
// falls outside the plane are left out.
#include "metrics/ssim/cpu/ssim_kernels.h"
#include "metrics/ssim/taps.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/ssim/cpu/vertical_moments.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "metrics/ssim/cpu/tap_filter-inl.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using ssim::kTap;
using ssim::kTaps;

// One vector of `row` from column i, widened to dout's lanes where they are wider.
template <class DOut, typename In>
HWY_INLINE hn::Vec<DOut> LoadWidened(DOut dout, const In* row, size_t i) {
  const hn::Rebind<In, DOut> din;
  if constexpr (sizeof(In) == sizeof(hn::TFromD<DOut>))
    return hn::LoadU(din, row + i);
  else
    return hn::PromoteTo(dout, hn::LoadU(din, row + i));
}

template <typename In, typename Out>
void Vertical(const In* const* rows, Out* HWY_RESTRICT out, size_t n) {
  const hn::ScalableTag<Out> dout;
  const size_t lanes = hn::Lanes(dout);
  auto load = [&](const In* row, size_t i) { return LoadWidened(dout, row, i); };
  bool full = true;
  for (int k = 0; k < kTaps; ++k) full = full && rows[k] != nullptr;

  size_t i = 0;
  if (full) {
    const In *r0 = rows[0], *r1 = rows[1], *r2 = rows[2], *r3 = rows[3], *r4 = rows[4],
             *r5 = rows[5], *r6 = rows[6], *r7 = rows[7], *r8 = rows[8];
    for (; i + lanes <= n; i += lanes)
      hn::StoreU(FilterNine(load(r0, i), load(r1, i), load(r2, i), load(r3, i), load(r4, i),
                            load(r5, i), load(r6, i), load(r7, i), load(r8, i)),
                 dout, out + i);
  } else {
    for (; i + lanes <= n; i += lanes) {
      auto sum = hn::Zero(dout);
      for (int k = 0; k < kTaps; ++k)
        if (rows[k]) sum = hn::Add(sum, TapTimes(k, load(rows[k], i)));
      hn::StoreU(sum, dout, out + i);
    }
  }
  for (; i < n; ++i) {
    Out sum = 0;
    for (int k = 0; k < kTaps; ++k)
      if (rows[k]) sum += Out{kTap[size_t(k)]} * Out{rows[k][i]};
    out[i] = sum;
  }
}

// Two window rows at once, every row inside the plane: out0 from rows[0..8],
// out1 from rows[1..9]. Each of the ten rows is loaded once for both, so the
// pass reads 10 rows per two outputs instead of 18: the single-row pass
// streams its nine rows from L2 (they outgrow L1 at 1080p) and is bound by that.
template <typename In, typename Out>
void VerticalPair(const In* const* rows, Out* HWY_RESTRICT out0, Out* HWY_RESTRICT out1, size_t n) {
  const hn::ScalableTag<Out> dout;
  const size_t lanes = hn::Lanes(dout);
  auto load = [&](const In* row, size_t i) { return LoadWidened(dout, row, i); };
  const In *r0 = rows[0], *r1 = rows[1], *r2 = rows[2], *r3 = rows[3], *r4 = rows[4], *r5 = rows[5],
           *r6 = rows[6], *r7 = rows[7], *r8 = rows[8], *r9 = rows[9];
  auto vector_at = [&](size_t i) {
    const auto p1 = load(r1, i), p2 = load(r2, i), p3 = load(r3, i), p4 = load(r4, i),
               p5 = load(r5, i), p6 = load(r6, i), p7 = load(r7, i), p8 = load(r8, i);
    hn::StoreU(FilterNine(load(r0, i), p1, p2, p3, p4, p5, p6, p7, p8), dout, out0 + i);
    hn::StoreU(FilterNine(p1, p2, p3, p4, p5, p6, p7, p8, load(r9, i)), dout, out1 + i);
  };
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) vector_at(i);
  // The tail by one more vector, overlapping: the outputs never alias the
  // rows, so the overlap rewrites the same values.
  if (i < n && n >= lanes) {
    vector_at(n - lanes);
    i = n;
  }
  for (; i < n; ++i) {
    Out sum0 = 0, sum1 = 0;
    for (int k = 0; k < kTaps; ++k) {
      sum0 += Out{kTap[size_t(k)]} * Out{rows[k][i]};
      sum1 += Out{kTap[size_t(k)]} * Out{rows[k + 1][i]};
    }
    out0[i] = sum0;
    out1[i] = sum1;
  }
}

void VerticalPair32To32(const uint32_t* const* rows, uint32_t* out0, uint32_t* out1, size_t n) {
  VerticalPair(rows, out0, out1, n);
}
void VerticalPair32To64(const uint32_t* const* rows, uint64_t* out0, uint64_t* out1, size_t n) {
  VerticalPair(rows, out0, out1, n);
}
void VerticalPair64To64(const uint64_t* const* rows, uint64_t* out0, uint64_t* out1, size_t n) {
  VerticalPair(rows, out0, out1, n);
}

void Vertical32To32(const uint32_t* const* rows, uint32_t* out, size_t n) {
  Vertical(rows, out, n);
}
void Vertical32To64(const uint32_t* const* rows, uint64_t* out, size_t n) {
  Vertical(rows, out, n);
}
void Vertical64To64(const uint64_t* const* rows, uint64_t* out, size_t n) {
  Vertical(rows, out, n);
}

}  // namespace exactvq::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq::cpu {

HWY_EXPORT(Vertical32To32);
HWY_EXPORT(Vertical32To64);
HWY_EXPORT(Vertical64To64);
HWY_EXPORT(VerticalPair32To32);
HWY_EXPORT(VerticalPair32To64);
HWY_EXPORT(VerticalPair64To64);

void vertical_moments(const uint32_t* const* rows, uint32_t* out, size_t n) {
  HWY_DYNAMIC_DISPATCH(Vertical32To32)(rows, out, n);
}
void vertical_moments(const uint32_t* const* rows, uint64_t* out, size_t n) {
  HWY_DYNAMIC_DISPATCH(Vertical32To64)(rows, out, n);
}
void vertical_moments(const uint64_t* const* rows, uint64_t* out, size_t n) {
  HWY_DYNAMIC_DISPATCH(Vertical64To64)(rows, out, n);
}
void vertical_moments_pair(const uint32_t* const* rows, uint32_t* out0, uint32_t* out1, size_t n) {
  HWY_DYNAMIC_DISPATCH(VerticalPair32To32)(rows, out0, out1, n);
}
void vertical_moments_pair(const uint32_t* const* rows, uint64_t* out0, uint64_t* out1, size_t n) {
  HWY_DYNAMIC_DISPATCH(VerticalPair32To64)(rows, out0, out1, n);
}
void vertical_moments_pair(const uint64_t* const* rows, uint64_t* out0, uint64_t* out1, size_t n) {
  HWY_DYNAMIC_DISPATCH(VerticalPair64To64)(rows, out0, out1, n);
}

}  // namespace exactvq::cpu
#endif  // HWY_ONCE
