// powf(x, 1.0f / 3.0f), the one C-library call ADM makes on data (each
// scale's numerator and denominator terms): glibc's powf, whose results are
// not correctly rounded (about one input in 1500 rounds the other way from
// x^y), so the definition is glibc's algorithm, pinned in libm/powf.cpp.
#pragma once

namespace exactvq::adm {

// The exponent libvmaf passes: the float nearest 1/3, 11184811 / 2^25.
inline constexpr float kOneThirdF = 0x1.555556p-2f;

// glibc's powf(x, kOneThirdF) for x >= 0 (x < 0 and NaN give NaN, +inf gives +inf).
float one_third_power(float x);

}  // namespace exactvq::adm
