#include "metrics/cambi/pool_records.h"

#include <algorithm>
#include <cmath>

namespace exactvq::cambi {

CambiPoolPartial merge_records(const uint64_t* words, size_t records) {
  CambiPoolPartial all = cambi_pool_empty();
  for (size_t i = 0; i < records; ++i)
    all = cambi_pool_merge(all, cambi_pool_load(words + i * EXACTVQ_CAMBI_POOL_WORDS));
  return all;
}

// docs/spec/cambi.md, "On CUDA and OpenCL": where at most k values are
// positive, the k largest are these and zeros; each is a binary32 multiple of
// q, the smallest one's unit in the last place, so every partial sum of any
// order is a multiple of q no larger than their exact sum S; where S < 2^53 q
// each is a binary64 number, every addition of the reference's is exact and
// its sum is S.
std::optional<double> pooled_from_partial(const CambiPoolPartial& all, size_t n, double topk) {
  const int count = int(n);
  const int k = std::clamp(int(topk * count), 1, count);
  if (all.odd || all.positives > uint64_t(k)) return std::nullopt;
  if (all.positives == 0) return 0.0 / k;
  // The smallest value is 2^e times a significand in [1, 2): q = 2^(e - 23),
  // 2^(e + 13) units of 2^-36.
  const int e = int(all.smallest >> 23) - 127;
  const int unit_shift = e + 13;            // 0 .. 27
  const int bound_shift = 53 + unit_shift;  // S < 2^53 q: the units below 2^bound_shift (53 .. 80)
  const bool below = bound_shift >= 64
                         ? all.sum_hi < (uint64_t{1} << (bound_shift - 64))
                         : all.sum_hi == 0 && all.sum_lo < (uint64_t{1} << bound_shift);
  if (!below) return std::nullopt;
  // Every value is a multiple of q; a sum that is not would be a fault.
  if (all.sum_lo & ((uint64_t{1} << unit_shift) - 1)) return std::nullopt;
  const uint64_t multiple =
      unit_shift == 0 ? all.sum_lo
                      : (all.sum_lo >> unit_shift) | (all.sum_hi << (64 - unit_shift));  // < 2^53
  const double sum = std::ldexp(double(multiple), e - 23);                               // exact
  return sum / k;
}

}  // namespace exactvq::cambi
