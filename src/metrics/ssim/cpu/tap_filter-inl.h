// The nine-tap window filter on integer lanes, shared by the horizontal and
// vertical kernels. Included inside a Highway target namespace, once per target
// (hence no include guard: Highway's per-target toggle guards it).
#if defined(EXACTVQ_CPU_TAP_FILTER_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef EXACTVQ_CPU_TAP_FILTER_INL_H_
#undef EXACTVQ_CPU_TAP_FILTER_INL_H_
#else
#define EXACTVQ_CPU_TAP_FILTER_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// g[k] * v for tap k, by shifts and adds (integer multiplies are slow, and
// 64-bit ones missing, on several targets). Unsigned lanes wrap, so each
// intermediate may too: the result is exact whenever it fits the lane.
template <class V>
HWY_INLINE V TapTimes(int k, V v) {
  switch (k) {
    case 0:
    case 8:
      return hn::ShiftLeft<1>(v);  // 2
    case 1:
    case 7:
      return hn::Add(hn::ShiftLeft<3>(v), v);  // 9
    case 2:
    case 6:
      return hn::Sub(hn::ShiftLeft<5>(v), hn::ShiftLeft<2>(v));  // 28
    case 3:
    case 5:  // 55
      return hn::Sub(hn::Sub(hn::ShiftLeft<6>(v), hn::ShiftLeft<3>(v)), v);
    default:
      return hn::Add(hn::ShiftLeft<6>(v), hn::ShiftLeft<2>(v));  // 68
  }
}

// All nine taps at once. With a = p0+p8, b = p1+p7, c = p2+p6, d = p3+p5, e = p4:
// 2a + 9b + 28c + 55d + 68e = 64(d+e) + 32c + 9(b-d) + 4(e-c) + 2a (mod 2^lanebits).
template <class V>
HWY_INLINE V FilterNine(V p0, V p1, V p2, V p3, V p4, V p5, V p6, V p7, V p8) {
  const V a = hn::Add(p0, p8), b = hn::Add(p1, p7), c = hn::Add(p2, p6), d = hn::Add(p3, p5);
  const V t = hn::Sub(b, d);
  V sum = hn::ShiftLeft<6>(hn::Add(d, p4));
  sum = hn::Add(sum, hn::ShiftLeft<5>(c));
  sum = hn::Add(sum, hn::Add(hn::ShiftLeft<3>(t), t));
  sum = hn::Add(sum, hn::ShiftLeft<2>(hn::Sub(p4, c)));
  return hn::Add(sum, hn::ShiftLeft<1>(a));
}

}  // namespace exactvq::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
