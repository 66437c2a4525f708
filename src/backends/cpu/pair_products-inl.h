// x86's multiply-add of int16 lane pairs into int32 lanes, for the kernels
// that take two taps a multiply-add. Included inside a Highway target
// namespace, once per target (Highway's per-target toggle guards it); x86
// targets only, where ReorderWidenMulAccumulate is pmaddwd: each int32 lane
// adds the products of its own two int16 lanes.
#if defined(EXACTVQ_CPU_PAIR_PRODUCTS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef EXACTVQ_CPU_PAIR_PRODUCTS_INL_H_
#undef EXACTVQ_CPU_PAIR_PRODUCTS_INL_H_
#else
#define EXACTVQ_CPU_PAIR_PRODUCTS_INL_H_
#endif

#include <hwy/highway.h>

#include "backends/cpu/simd_targets.h"

HWY_BEFORE_NAMESPACE();
namespace exactvq::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR

// sum plus the products of a's and b's int16 lanes, each int32 lane adding
// its two (pmaddwd and an add, wrapping modulo 2^32). With kVnni, on AVX3
// only and where cpu::use_vnni(), the one VNNI vpdpwssd, the same sum:
// written as assembly since Highway 1.0.3 has no VNNI op and an intrinsic
// would need the extension on every function that inlines this one.
template <bool kVnni, class V16, class V32>
HWY_INLINE V32 MulAddPairs(V16 a, V16 b, V32 sum) {
  using D32 = hn::DFromV<V32>;
  static_assert(sizeof(hn::TFromV<V16>) == 2 && sizeof(hn::TFromD<D32>) == 4);
#if HWY_TARGET == HWY_AVX3
  if constexpr (kVnni) {
    asm("vpdpwssd %2, %1, %0" : "+v"(sum.raw) : "v"(a.raw), "vm"(b.raw));
    return sum;
  }
#else
  static_assert(!kVnni, "vpdpwssd: AVX3 only");
#endif
  V32 unused = hn::Zero(D32());
  return hn::ReorderWidenMulAccumulate(D32(), a, b, sum, unused);
}

// run.template operator()<kVnni>(), kVnni the one run-time choice of the
// kernels that take MulAddPairs: true on AVX3 where cpu::use_vnni().
template <class Run>
HWY_INLINE decltype(auto) WithVnniChoice(const Run& run) {
#if HWY_TARGET == HWY_AVX3
  if (use_vnni()) return run.template operator()<true>();
#endif
  return run.template operator()<false>();
}

#endif  // HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR

}  // namespace exactvq::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // EXACTVQ_CPU_PAIR_PRODUCTS_INL_H_
