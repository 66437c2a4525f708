// powf(x, 1.0f / 3.0f), the one C-library call ADM makes on data (each
// scale's numerator and denominator terms). libvmaf's scores come from glibc's
// powf (the algorithm of Arm's optimized-routines: a 16-entry log2 table, a
// 32-entry exp2 table, short polynomials, all in binary64), which is not
// correctly rounded: about one input in 1500 rounds the other way from x^y.
// So the definition is that algorithm, reproduced here with its data pinned
// and its binary64 operations in its order. Evaluating its multiply-adds fused
// (glibc's FMA build) gives the same float for every input, and glibc 2.36's
// powf equals this function on all 2^31 non-negative floats (checked
// exhaustively; tests/adm sweeps a sample against the host's powf).
#pragma once

namespace exactvq::adm {

// The exponent libvmaf passes: the float nearest 1/3, 11184811 / 2^25.
inline constexpr float kOneThirdF = 0x1.555556p-2f;

// glibc's powf(x, kOneThirdF) for x >= 0 (x < 0 and NaN give NaN, +inf gives +inf).
float one_third_power(float x);

}  // namespace exactvq::adm
