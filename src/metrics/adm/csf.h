// ADM's contrast sensitivity weighting (CSF) in fixed point: each detail band
// times its Watson factor, and a "flattened" copy |csf| / 30 that the masking
// stage sums over 3x3 neighbourhoods. Integers only.
#pragma once

#include <cstdint>

namespace exactvq::adm {

// Scale 0: csf = (factor * src + round) >> shift (16-bit); flt = (4369 *
// |csf| + 2048) >> 12, kept modulo 2^16 as libvmaf's int16 store.
void csf_row_s0(const int16_t* src, int begin, int end, uint16_t factor, int shift, int32_t round,
                int16_t* csf, int16_t* flt);

// Scales 1..3: csf = (factor * src + 2^27) >> 28 with the Q32 factor; flt =
// (143165577 * |csf| - 2^31) >> 32 (libvmaf's rounding constant 1u << 31
// stored in an int32: negative).
void csf_row_s123(const int32_t* src, int begin, int end, uint32_t factor, int32_t* csf,
                  int32_t* flt);

// The rounding constant libvmaf adds before the 32-bit shifts of scales 1..3.
inline constexpr int64_t kRoundBeforeShift32 = INT32_MIN;

}  // namespace exactvq::adm
