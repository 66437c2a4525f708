// Vertical moments (spec/ssim.md step 2) as a Highway kernel: the nine-tap
// filter down the column, over the rows' horizontal moments; taps whose row
// falls outside the plane are left out.
#include "cpu/ssim_kernels.h"
#include "ssim/taps.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "cpu/vertical_moments.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "cpu/tap_filter-inl.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using ssim::kTap;
using ssim::kTaps;

template <typename In, typename Out>
void Vertical(const In* const* rows, Out* HWY_RESTRICT out, size_t n) {
  const hn::ScalableTag<Out> dout;
  const hn::Rebind<In, decltype(dout)> din;
  const size_t lanes = hn::Lanes(dout);
  auto load = [&](const In* row, size_t i) {
    if constexpr (sizeof(In) == sizeof(Out)) return hn::LoadU(din, row + i);
    else return hn::PromoteTo(dout, hn::LoadU(din, row + i));
  };
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

void vertical_moments(const uint32_t* const* rows, uint32_t* out, size_t n) {
  HWY_DYNAMIC_DISPATCH(Vertical32To32)(rows, out, n);
}
void vertical_moments(const uint32_t* const* rows, uint64_t* out, size_t n) {
  HWY_DYNAMIC_DISPATCH(Vertical32To64)(rows, out, n);
}
void vertical_moments(const uint64_t* const* rows, uint64_t* out, size_t n) {
  HWY_DYNAMIC_DISPATCH(Vertical64To64)(rows, out, n);
}

}  // namespace exactvq::cpu
#endif  // HWY_ONCE
