// first_above as a Highway kernel, the twin of sample_range_reference.cpp; every
// target Highway offers is compiled in and the best one runs. In-range input (the
// usual case) costs a maximum of four vectors and one test per four vectors; the
// vector holding the first sample above is then found one vector at a time.
#include "io/sample_range.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "io/cpu/sample_range_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace exactvq::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

size_t FirstAbove(const uint16_t* s, size_t n, uint16_t max) {
  const hn::ScalableTag<uint16_t> d;
  const size_t lanes = hn::Lanes(d);
  const auto limit = hn::Set(d, max);
  size_t i = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    const auto a = hn::Max(hn::LoadU(d, s + i), hn::LoadU(d, s + i + lanes));
    const auto b = hn::Max(hn::LoadU(d, s + i + 2 * lanes), hn::LoadU(d, s + i + 3 * lanes));
    if (!hn::AllFalse(d, hn::Gt(hn::Max(a, b), limit))) break;  // one of these four holds it
  }
  for (; i + lanes <= n; i += lanes) {
    const auto above = hn::Gt(hn::LoadU(d, s + i), limit);
    if (!hn::AllFalse(d, above)) return i + size_t(hn::FindFirstTrue(d, above));
  }
  for (; i < n; ++i)
    if (s[i] > max) return i;
  return n;
}

}  // namespace exactvq::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace exactvq {

HWY_EXPORT(FirstAbove);

size_t first_above(const uint16_t* s, size_t n, uint16_t max) {
  return HWY_DYNAMIC_DISPATCH(FirstAbove)(s, n, max);
}

}  // namespace exactvq
#endif  // HWY_ONCE
