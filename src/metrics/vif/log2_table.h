// libvmaf's fixed-point log2 for vif: a 16-bit table of round(2048 * log2f(i))
// over i in [2^15, 2^16), and the two lookups that normalise a 32- or 64-bit
// value to 16 significant bits first (truncating the rest).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

namespace exactvq::vif {

inline constexpr uint32_t kLog2TableFirst = 32768;  // the smallest index looked up
inline constexpr size_t kLog2TableSize = 32768;     // indices [32768, 65535]
inline constexpr uint16_t kLog2TableBase = 30720;   // 2048 * 15, the value at 32768
inline constexpr size_t kLog2Steps = 2048;          // 30720 rises to 32768 one by one

// kLog2Table[i - kLog2TableFirst] = round(2048 * log2f(float(i))), as libvmaf
// computes it at start-up with glibc's log2f, here from pinned data.
extern const std::array<uint16_t, kLog2TableSize> kLog2Table;

// kLog2Table and kLog2TablePadding zero entries after it, so that an 8-byte
// load at any entry stays inside (the SIMD kernels' gathers).
inline constexpr size_t kLog2TablePadding = 4;
extern const std::array<uint16_t, kLog2TableSize + kLog2TablePadding> kLog2TablePadded;

// The pinned data itself: for v = 1..2048, the first i whose entry is 30720 + v.
std::span<const uint16_t, kLog2Steps> log2_step_starts();

// i in [2^15, 2^16): its top bit set, the rest the table index.
inline uint16_t log2_table_at(uint32_t i) { return kLog2Table[i & (kLog2TableFirst - 1)]; }

// 2048 * log2(v) with v cut to its top 16 bits; v >= 2^15.
inline int32_t log2_fixed_32(uint32_t v) {
  const int shift = 16 - std::countl_zero(v);
  return int32_t(log2_table_at(v >> shift)) + 2048 * shift;
}

// The same for 64-bit values; v >= 2^15.
inline int32_t log2_fixed_64(uint64_t v) {
  const int shift = 48 - std::countl_zero(v);
  return int32_t(log2_table_at(uint32_t(v >> shift))) + 2048 * shift;
}

}  // namespace exactvq::vif
