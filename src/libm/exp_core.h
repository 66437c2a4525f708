// The core shared by exp and pow (glibc 2.36, Arm optimized-routines): x is
// split as k ln2/128 + r, 2^(k/128) comes from a 128-entry table and exp(r)
// from a degree-5 polynomial; scale + scale * tmp, one fma, gives the result.
#pragma once

#include <cstdint>

namespace exactvq::libm::detail {

// 128/ln 2, and -ln2/128 split in a 44-bit head and its tail.
inline constexpr double kExpInvLn2N = 0x1.71547652b82fep+7;
inline constexpr double kExpNegLn2HiN = -0x1.62e42fefap-8;
inline constexpr double kExpNegLn2LoN = -0x1.cf79abc9e3b3ap-47;
// Adding it rounds a value below 2^51 to an integer, left in the low bits.
inline constexpr double kExpShift = 0x1.8p+52;
// exp(r) - 1 - r ~ r^2 (C2 + C3 r) + r^4 (C4 + C5 r) for |r| <= ln2/256.
inline constexpr double kExpC2 = 0x1.ffffffffffdbdp-2;
inline constexpr double kExpC3 = 0x1.555555555543cp-3;
inline constexpr double kExpC4 = 0x1.55555cf172b91p-5;
inline constexpr double kExpC5 = 0x1.1111167a4d017p-7;

// For j in [0, 128): entry 2j is the bits of tail_j and entry 2j + 1 the bits
// of 2^(j/128) less j << 45, where 2^(j/128) ~ scale_j (1 + tail_j); adding
// k << 45 to an odd entry then scales it by 2^(k div 128).
extern const uint64_t kExpTable[256];

// scale + scale * tmp where scale's exponent (sbits) may have left the
// binary64 range: k = (int32_t)ki > 0 may overflow, k < 0 may underflow; in
// the subnormal range the sum is rounded once more carefully, as glibc does.
double exp_scale_special(double tmp, uint64_t sbits, uint64_t ki);

}  // namespace exactvq::libm::detail
