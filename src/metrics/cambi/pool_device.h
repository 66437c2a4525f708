/* Cambi's pooling summarised on a device (docs/spec/cambi.md, "On CUDA and
 * OpenCL"), in the subset of core/portable.h: the CUDA and OpenCL contrast
 * kernels fold each value they write into a partial record, and merge their
 * block's (work-group's) records into one; the host merges a scale's records
 * and decides (device_plan.h's pool_from_records) whether they give the
 * reference's pooled value. tests/metrics/cambi/pool_device_test.cpp runs
 * the same functions on the host in the kernels' arrangement.
 *
 * Integers only, so the order in which values and records meet does not
 * matter: a positive value v in [2^-13, 2^15) is a binary32 number whose unit
 * in the last place is at least 2^-36, so v / 2^-36 is an integer below 2^51,
 * added exactly into a 128-bit sum. Any other value that is not +0 (negative,
 * NaN, infinite, below 2^-13 or from 2^15 on; none comes from the definition,
 * whose positive values lie in [1/2, 9506.25], as pool_device_test.cpp checks
 * for every one) marks the record, and the host then pools the values
 * themselves.
 */
#ifndef EXACTVQ_METRICS_CAMBI_POOL_DEVICE_H
#define EXACTVQ_METRICS_CAMBI_POOL_DEVICE_H

#include "core/portable.h"
#include "core/portable_bits.h"

/* The bits of 2^-13 and of 2^15: the positive values summed lie between. */
#define EXACTVQ_CAMBI_POOL_LOW_BITS 0x39000000u
#define EXACTVQ_CAMBI_POOL_HIGH_BITS 0x47000000u
/* The exponent field of 2^-13: a value's units of 2^-36 are its significand
 * shifted by its field minus this. */
#define EXACTVQ_CAMBI_POOL_LOW_FIELD 114
/* No positive value yet: above every positive value's bits. */
#define EXACTVQ_CAMBI_POOL_NONE 0xFFFFFFFFu
/* A record's 64-bit words in device memory. */
#define EXACTVQ_CAMBI_POOL_WORDS 4

/* What a set of values sums up to: their sum in units of 2^-36 (128 bits:
 * sum_hi 2^64 + sum_lo), how many are positive, the smallest positive one's
 * bits, and whether any is neither +0 nor positive in [2^-13, 2^15). */
typedef struct CambiPoolPartial {
  exactvq_u64 sum_lo, sum_hi;
  exactvq_u64 positives;
  exactvq_u32 smallest;
  exactvq_u32 odd;
} CambiPoolPartial;

EXACTVQ_FN CambiPoolPartial cambi_pool_empty(void) {
  CambiPoolPartial p;
  p.sum_lo = 0;
  p.sum_hi = 0;
  p.positives = 0;
  p.smallest = EXACTVQ_CAMBI_POOL_NONE;
  p.odd = 0;
  return p;
}

/* The 128-bit sum plus `lo` (a 64-bit addend) and `hi` 2^64. */
EXACTVQ_FN CambiPoolPartial cambi_pool_add_units(CambiPoolPartial p, exactvq_u64 lo,
                                                 exactvq_u64 hi) {
  p.sum_lo += lo;
  p.sum_hi += hi + (p.sum_lo < lo ? 1u : 0u);
  return p;
}

/* `p` with the value `v` added. */
EXACTVQ_FN CambiPoolPartial cambi_pool_add(CambiPoolPartial p, float v) {
  const exactvq_u32 b = exactvq_f32_bits(v);
  if (b == 0u) return p;
  if (b < EXACTVQ_CAMBI_POOL_LOW_BITS || b >= EXACTVQ_CAMBI_POOL_HIGH_BITS) {
    p.odd = 1u; /* the sign bit set, or too small, or too large, or not a number */
    return p;
  }
  const exactvq_u64 significand = (exactvq_u64)((b & 0x7FFFFFu) | 0x800000u);
  const int shift = (int)(b >> 23) - EXACTVQ_CAMBI_POOL_LOW_FIELD; /* 0 .. 27 */
  p = cambi_pool_add_units(p, significand << shift, 0u);
  p.positives += 1u;
  if (b < p.smallest) p.smallest = b; /* positive binary32 values order as their bits */
  return p;
}

/* The two sets' record together. */
EXACTVQ_FN CambiPoolPartial cambi_pool_merge(CambiPoolPartial a, CambiPoolPartial b) {
  a = cambi_pool_add_units(a, b.sum_lo, b.sum_hi);
  a.positives += b.positives;
  if (b.smallest < a.smallest) a.smallest = b.smallest;
  a.odd |= b.odd;
  return a;
}

/* `p` with row[x0 .. min(x0 + count, w)) added (a contrast run's values). */
EXACTVQ_FN CambiPoolPartial cambi_pool_add_run(CambiPoolPartial p, const EXACTVQ_GLOBAL float* row,
                                               int x0, int count, int w) {
  const int end = x0 + count < w ? x0 + count : w;
  for (int x = x0; x < end; ++x) p = cambi_pool_add(p, row[x]);
  return p;
}

EXACTVQ_FN void cambi_pool_store(EXACTVQ_GLOBAL exactvq_u64* at, CambiPoolPartial p) {
  at[0] = p.sum_lo;
  at[1] = p.sum_hi;
  at[2] = p.positives;
  at[3] = (exactvq_u64)p.smallest | ((exactvq_u64)p.odd << 32);
}

EXACTVQ_FN CambiPoolPartial cambi_pool_load(const EXACTVQ_GLOBAL exactvq_u64* at) {
  CambiPoolPartial p;
  p.sum_lo = at[0];
  p.sum_hi = at[1];
  p.positives = at[2];
  p.smallest = (exactvq_u32)(at[3] & 0xFFFFFFFFu);
  p.odd = (exactvq_u32)(at[3] >> 32);
  return p;
}

#endif /* EXACTVQ_METRICS_CAMBI_POOL_DEVICE_H */
