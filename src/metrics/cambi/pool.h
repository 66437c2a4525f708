// Cambi's pooling (pool_topk, reference.h) without the quick select where
// the order of the sum cannot matter. Every positive contrast value is a
// binary32 multiple of q, the unit in the last place of the smallest of them,
// so every sum of them is a multiple of q; below 2^53 q such a sum is a
// binary64 value. Where the top k include every positive value, their sum
// (zeros add nothing) computed in any order is below B = 2^53 q only if each
// partial sum of any order is (the values are not negative and rounding is
// monotonic), hence then exact: the reference's sum in the quick select's
// order is that same number. Elsewhere (more positive values than k, or a
// sum reaching B) the reference pools.
#pragma once

#include <span>

namespace exactvq::cambi {

// pool_topk's value; `values` may be reordered (by the reference's quick select).
double pool_topk_simd(std::span<float> values, double topk);

}  // namespace exactvq::cambi
