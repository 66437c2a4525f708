/* The integer half of the parallel raster-order binary64 sum (docs/spec/raster_sum.md):
 * while a running sum stays inside one binade's grid, each rounded addition moves it by an
 * integer number of ulps, which depends on the term and on the sum's parity. A run of terms
 * becomes a record (the increment, its lowest and highest partial sums, the parity after)
 * for each starting parity; records compose associatively; a record is accepted at a state
 * (e, M) when every partial sum stays inside the grid's interior. Integers only, in the
 * subset of core/portable.h, for C++, CUDA and OpenCL.
 */
#ifndef EXACTVQ_CORE_BINADE_STEP_H
#define EXACTVQ_CORE_BINADE_STEP_H

#include "core/portable.h"

/* Terms a chunk holds, and chunks a block of the replay holds. */
#define EXACTVQ_RASTER_CHUNK 256
#define EXACTVQ_RASTER_BLOCK_CHUNKS 32
/* The grid of +0, the subnormals and [2^-1022, 2^-1021). */
#define EXACTVQ_LOW_EXPONENT (-1022)

/* A run's records at one exponent, for starting parity 0 and 1: increment k, lowest and
 * highest partial sum lo <= 0 <= hi. flags bit p: passable from parity p; bit 2 + p: the
 * parity after the run from parity p. */
typedef struct exactvq_run_record {
  exactvq_i64 k[2];
  exactvq_i64 lo[2];
  exactvq_i64 hi[2];
  exactvq_i32 exponent;
  exactvq_u32 flags;
} exactvq_run_record;

EXACTVQ_FN exactvq_run_record exactvq_run_identity(exactvq_i32 exponent) {
  exactvq_run_record r;
  r.k[0] = r.k[1] = r.lo[0] = r.lo[1] = r.hi[0] = r.hi[1] = 0;
  r.exponent = exponent;
  r.flags = 3u | (1u << 3); /* both passable, parity kept */
  return r;
}

EXACTVQ_FN exactvq_run_record exactvq_run_impassable(exactvq_i32 exponent) {
  exactvq_run_record r = exactvq_run_identity(exponent);
  r.flags = 0;
  return r;
}

/* One term (its bits) at exponent e: |k| = |t| / 2^(e-52) rounded to the nearest integer, a
 * halfway case to the |k| that leaves M + k even, in *mag0 for an even M and *mag1 for an odd
 * one (k has t's sign). Returns 0 (impassable) for infinities, NaN and |t / ulp| >= 2^54 (no
 * state inside the grid could take it). */
EXACTVQ_FN int exactvq_term_steps(exactvq_u64 bits, exactvq_i32 e, exactvq_u64* step0,
                                  exactvq_u64* step1) {
  const exactvq_u32 field = (exactvq_u32)(bits >> 52) & 0x7ffu;
  const exactvq_u64 frac = bits & ((EXACTVQ_U64_C(1) << 52) - 1);
  if (field == 0x7ffu) return 0;
  const exactvq_u64 t = field ? (frac | (EXACTVQ_U64_C(1) << 52)) : frac;
  /* t / ulp = t * 2^h */
  const exactvq_i32 h = (field ? (exactvq_i32)field : 1) - 1075 - e + 52;
  exactvq_u64 mag0, mag1;
  if (t == 0) {
    mag0 = mag1 = 0;
  } else if (h >= 0) {
    if (h >= 54 || (t >> (54 - h)) != 0) return 0;
    mag0 = mag1 = t << h;
  } else if (h < -54) {
    mag0 = mag1 = 0; /* t < 2^53 <= half an ulp's 2^(d-1) */
  } else {
    const exactvq_i32 d = -h;
    const exactvq_u64 q = t >> d;
    const exactvq_u64 rest = t & ((EXACTVQ_U64_C(1) << d) - 1);
    const exactvq_u64 halfway = EXACTVQ_U64_C(1) << (d - 1);
    if (rest > halfway) {
      mag0 = mag1 = q + 1;
    } else if (rest < halfway) {
      mag0 = mag1 = q;
    } else { /* halfway: of q and q + 1, the one with parity + |k| even */
      mag0 = q + (q & 1);
      mag1 = q + ((q + 1) & 1);
    }
  }
  *step0 = mag0;
  *step1 = mag1;
  return 1;
}

/* One term's record at exponent e (exactvq_term_steps). */
EXACTVQ_FN exactvq_run_record exactvq_run_of_term(exactvq_u64 bits, exactvq_i32 e) {
  exactvq_run_record r = exactvq_run_identity(e);
  exactvq_u64 mag0 = 0, mag1 = 0;
  if (!exactvq_term_steps(bits, e, &mag0, &mag1)) return exactvq_run_impassable(e);
  const int negative = (int)(bits >> 63);
  r.k[0] = negative ? -(exactvq_i64)mag0 : (exactvq_i64)mag0;
  r.k[1] = negative ? -(exactvq_i64)mag1 : (exactvq_i64)mag1;
  r.lo[0] = r.k[0] < 0 ? r.k[0] : 0;
  r.lo[1] = r.k[1] < 0 ? r.k[1] : 0;
  r.hi[0] = r.k[0] > 0 ? r.k[0] : 0;
  r.hi[1] = r.k[1] > 0 ? r.k[1] : 0;
  r.flags = 3u | ((exactvq_u32)(mag0 & 1) << 2) | ((exactvq_u32)((1 + mag1) & 1) << 3);
  return r;
}

/* x[q] for q = 0 or 1, written as a selection so that device compilers keep records in
 * registers (an indexed array would go to local memory). */
EXACTVQ_FN exactvq_i64 exactvq_pick(const exactvq_i64 x[2], int q) { return q ? x[1] : x[0]; }

/* Run a, then run b (both at one exponent; different exponents do not compose). A
 * partial sum beyond 2^54 can never be accepted, so it makes the record impassable,
 * which also keeps every sum below 2^55 (no overflow). */
EXACTVQ_FN exactvq_run_record exactvq_run_then(exactvq_run_record a, exactvq_run_record b) {
  const exactvq_i64 limit = (exactvq_i64)1 << 54;
  exactvq_run_record c = exactvq_run_impassable(a.exponent);
  if (a.exponent != b.exponent) return c;
  EXACTVQ_UNROLL
  for (int p = 0; p < 2; ++p) {
    const int q = (int)((a.flags >> (2 + p)) & 1u);
    const exactvq_i64 ak = p ? a.k[1] : a.k[0];
    const exactvq_i64 lo_b = ak + exactvq_pick(b.lo, q), hi_b = ak + exactvq_pick(b.hi, q);
    const exactvq_i64 alo = p ? a.lo[1] : a.lo[0], ahi = p ? a.hi[1] : a.hi[0];
    const exactvq_i64 lo = alo < lo_b ? alo : lo_b;
    const exactvq_i64 hi = ahi > hi_b ? ahi : hi_b;
    if (!((a.flags >> p) & 1u) || !((b.flags >> q) & 1u) || lo < -limit || hi > limit) continue;
    if (p) {
      c.k[1] = ak + exactvq_pick(b.k, q);
      c.lo[1] = lo;
      c.hi[1] = hi;
    } else {
      c.k[0] = ak + exactvq_pick(b.k, q);
      c.lo[0] = lo;
      c.hi[0] = hi;
    }
    c.flags |= (1u << p) | (((b.flags >> (2 + q)) & 1u) << (2 + p));
  }
  return c;
}

/* The record of run r followed by one term (its bits): exactvq_run_then(r,
 * exactvq_run_of_term(bits, r.exponent)) in fewer steps, for the loops that fold a
 * run term by term. */
EXACTVQ_FN exactvq_run_record exactvq_run_push_term(exactvq_run_record r, exactvq_u64 bits) {
  exactvq_u64 mag0 = 0, mag1 = 0;
  const int term_passable = exactvq_term_steps(bits, r.exponent, &mag0, &mag1);
  const int negative = (int)(bits >> 63);
  const exactvq_i64 limit = (exactvq_i64)1 << 54;
  exactvq_u32 flags = 0;
  EXACTVQ_UNROLL
  for (int p = 0; p < 2; ++p) {
    const int q = (int)((r.flags >> (2 + p)) & 1u);
    const exactvq_u64 mag = q ? mag1 : mag0;
    const exactvq_i64 k = (p ? r.k[1] : r.k[0]) + (negative ? -(exactvq_i64)mag : (exactvq_i64)mag);
    const exactvq_i64 lo0 = p ? r.lo[1] : r.lo[0], hi0 = p ? r.hi[1] : r.hi[0];
    const exactvq_i64 lo = k < lo0 ? k : lo0, hi = k > hi0 ? k : hi0;
    const int passable = ((r.flags >> p) & 1u) && term_passable && lo >= -limit && hi <= limit;
    if (p) {
      r.k[1] = passable ? k : 0;
      r.lo[1] = passable ? lo : 0;
      r.hi[1] = passable ? hi : 0;
    } else {
      r.k[0] = passable ? k : 0;
      r.lo[0] = passable ? lo : 0;
      r.hi[0] = passable ? hi : 0;
    }
    if (passable) flags |= (1u << p) | ((exactvq_u32)((q + mag) & 1u) << (2 + p));
  }
  r.flags = flags;
  return r;
}

/* The state (e, m) of a double's bits: s = m * 2^(e-52); 0 for -0, infinities and NaN. */
EXACTVQ_FN int exactvq_state_of(exactvq_u64 bits, exactvq_i32* e, exactvq_i64* m) {
  const exactvq_u32 field = (exactvq_u32)(bits >> 52) & 0x7ffu;
  if (field == 0x7ffu || bits == (EXACTVQ_U64_C(1) << 63)) return 0;
  const exactvq_u64 frac = bits & ((EXACTVQ_U64_C(1) << 52) - 1);
  const exactvq_u64 mag = field ? (frac | (EXACTVQ_U64_C(1) << 52)) : frac;
  *e = (field ? (exactvq_i32)field : 1) - 1023;
  *m = (bits >> 63) ? -(exactvq_i64)mag : (exactvq_i64)mag;
  return 1;
}

/* The bits of m * 2^(e-52), for |m| < 2^53 (and |m| >= 2^52 unless e is the low exponent):
 * the implicit bit carries into the exponent field. m = 0 gives +0. */
EXACTVQ_FN exactvq_u64 exactvq_bits_of_state(exactvq_i32 e, exactvq_i64 m) {
  const exactvq_u64 mag = (exactvq_u64)(m < 0 ? -m : m);
  return (m < 0 ? (EXACTVQ_U64_C(1) << 63) : 0) + ((exactvq_u64)(e + 1022) << 52) + mag;
}

/* A chunk's candidate exponent from a double's bits (1024 for infinities and NaN, which
 * no state has). */
EXACTVQ_FN exactvq_i32 exactvq_exponent_of(exactvq_u64 bits) {
  const exactvq_u32 field = (exactvq_u32)(bits >> 52) & 0x7ffu;
  return (field ? (exactvq_i32)field : 1) - 1023;
}

/* Whether the run's record may be replayed from state (e, m): same exponent, passable from
 * m's parity, and every partial sum m + K_j inside one interval of the grid's interior:
 * 2^52 < |.| < 2^53 of one sign, or |.| < 2^53 on the low grid. */
EXACTVQ_FN int exactvq_run_accepts(exactvq_run_record r, exactvq_i32 e, exactvq_i64 m) {
  const exactvq_i64 top = (exactvq_i64)1 << 53, bottom = (exactvq_i64)1 << 52;
  const int p = (int)(m & 1);
  if (r.exponent != e || !((r.flags >> p) & 1u)) return 0;
  const exactvq_i64 lo = m + exactvq_pick(r.lo, p), hi = m + exactvq_pick(r.hi, p);
  if (e == EXACTVQ_LOW_EXPONENT) return lo > -top && hi < top;
  return (lo > bottom && hi < top) || (hi < -bottom && lo > -top);
}

/* The Theorem of the spec on bits: if the record is accepted at the state of the
 * double *sum, *sum becomes the state after the run (its bits) and the result is 1;
 * otherwise *sum is left as it is and the result is 0. */
EXACTVQ_FN int exactvq_run_replay(exactvq_u64* sum, exactvq_run_record r) {
  exactvq_i32 e = 0;
  exactvq_i64 m = 0;
  if (!exactvq_state_of(*sum, &e, &m) || !exactvq_run_accepts(r, e, m)) return 0;
  *sum = exactvq_bits_of_state(e, m + exactvq_pick(r.k, (int)(m & 1)));
  return 1;
}

#endif /* EXACTVQ_CORE_BINADE_STEP_H */
