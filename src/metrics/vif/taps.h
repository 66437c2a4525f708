// vif's Gaussian filters, one a level of its four-level pyramid, and the
// fixed-point roundings of their passes.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace exactvq::vif {

inline constexpr int kLevels = 4;
inline constexpr int kMaxHalfTaps = 8;  // level 0's 17 taps

// libvmaf's vif_filter1d_table: 17, 9, 5 and 3 taps, each set summing to 65536.
inline constexpr uint16_t kTaps0[] = {489,  935,  1640, 2640, 3896, 5274, 6547, 7455, 7784,
                                      7455, 6547, 5274, 3896, 2640, 1640, 935,  489};
inline constexpr uint16_t kTaps1[] = {1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244};
inline constexpr uint16_t kTaps2[] = {3571, 16004, 26386, 16004, 3571};
inline constexpr uint16_t kTaps3[] = {10904, 43728, 10904};

inline std::span<const uint16_t> level_taps(int level) {
  static constexpr std::array<std::span<const uint16_t>, kLevels> kAll = {kTaps0, kTaps1, kTaps2,
                                                                          kTaps3};
  return kAll[size_t(level)];
}

inline int half_taps(int level) { return int(level_taps(level).size() / 2); }

// (sum + add) >> shift, the rounding right shift of every filter pass.
struct Rounding {
  int shift = 0;
  uint32_t add = 0;
};

inline constexpr Rounding rounding_by(int shift) {
  return {shift, shift > 0 ? uint32_t{1} << (shift - 1) : 0u};
}

// The vertical pass of level 0 brings means to 16-bit scale (shift by the bit
// depth) and second moments to 32 bits (2 * (bitdepth - 8)); levels above
// hold 16-bit means already and shift both by 16.
inline Rounding vertical_mean_rounding(int level, int bitdepth) {
  return rounding_by(level == 0 ? bitdepth : 16);
}
inline Rounding vertical_square_rounding(int level, int bitdepth) {
  return rounding_by(level == 0 ? 2 * (bitdepth - 8) : 16);
}

}  // namespace exactvq::vif
