#include "metrics/adm/dwt.h"

#include <cstddef>

namespace exactvq::adm {

namespace {

int mirror(int index, int length) {
  if (index < 0) return -index;
  if (index >= length) return 2 * length - index - 1;
  return index;
}

template <typename Sample>
void vertical0(const Sample* const rows[4], int width, int bitdepth, int16_t* lo, int16_t* hi) {
  const int64_t half = int64_t{1} << (bitdepth - 1);
  const int64_t centre = int64_t{kDwtLowSum} * half;
  for (int j = 0; j < width; ++j) {
    // libvmaf sums in int32, which wraps for 16-bit samples; the wrapped sum
    // ends in int32 range, so it equals this exact 64-bit sum.
    int64_t sum_lo = 0, sum_hi = 0;
    for (int k = 0; k < 4; ++k) {
      const int64_t s = rows[k][j];
      sum_lo += kDwtLow[k] * s;
      sum_hi += kDwtHigh[k] * s;
    }
    lo[j] = static_cast<int16_t>((sum_lo - centre + half) >> bitdepth);
    if (hi != nullptr) hi[j] = static_cast<int16_t>((sum_hi + half) >> bitdepth);
  }
}

int16_t horizontal0_tap(const int16_t* src, const std::array<int, 4>& t, const int32_t* filter) {
  int32_t sum = 0;  // |sum| <= 54822 * 32768: no overflow
  for (int k = 0; k < 4; ++k) sum += filter[k] * src[t[k]];
  return static_cast<int16_t>((sum + 32768) >> 16);
}

// Rounding and shift of the vertical and horizontal passes at scales 1, 2, 3.
constexpr int64_t kVerticalRound[3] = {0, 32768, 32768};
constexpr int kVerticalShift[3] = {0, 16, 16};
constexpr int64_t kHorizontalRound[3] = {16384, 32768, 16384};
constexpr int kHorizontalShift[3] = {15, 16, 15};

int32_t tap_s123(const int32_t* src, const std::array<int, 4>& t, const int32_t* filter, int64_t round,
                 int shift) {
  int64_t sum = 0;
  for (int k = 0; k < 4; ++k) sum += int64_t{filter[k]} * src[t[k]];
  return static_cast<int32_t>((sum + round) >> shift);  // libvmaf's cast: modulo 2^32
}

}  // namespace

std::vector<std::array<int, 4>> dwt_taps(int length) {
  std::vector<std::array<int, 4>> taps(static_cast<size_t>((length + 1) / 2));
  for (int i = 0; i < static_cast<int>(taps.size()); ++i)
    for (int k = 0; k < 4; ++k) taps[i][k] = mirror(2 * i - 1 + k, length);
  return taps;
}

void dwt0_vertical(const uint8_t* const rows[4], int width, int16_t* lo, int16_t* hi) {
  vertical0(rows, width, 8, lo, hi);
}

void dwt0_vertical(const uint16_t* const rows[4], int width, int bitdepth, int16_t* lo, int16_t* hi) {
  vertical0(rows, width, bitdepth, lo, hi);
}

void dwt0_horizontal(const int16_t* lo, const int16_t* hi, const std::array<int, 4>* taps,
                     int out_width, int16_t* a, int16_t* v, int16_t* h, int16_t* d) {
  for (int j = 0; j < out_width; ++j) {
    a[j] = horizontal0_tap(lo, taps[j], kDwtLow);
    if (hi == nullptr) continue;
    v[j] = horizontal0_tap(lo, taps[j], kDwtHigh);
    h[j] = horizontal0_tap(hi, taps[j], kDwtLow);
    d[j] = horizontal0_tap(hi, taps[j], kDwtHigh);
  }
}

void dwt_vertical_s123(const int32_t* const rows[4], int width, int scale, int32_t* lo, int32_t* hi) {
  const int64_t round = kVerticalRound[scale - 1];
  const int shift = kVerticalShift[scale - 1];
  for (int j = 0; j < width; ++j) {
    int64_t sum_lo = 0, sum_hi = 0;
    for (int k = 0; k < 4; ++k) {
      sum_lo += int64_t{kDwtLow[k]} * rows[k][j];
      sum_hi += int64_t{kDwtHigh[k]} * rows[k][j];
    }
    lo[j] = static_cast<int32_t>((sum_lo + round) >> shift);
    hi[j] = static_cast<int32_t>((sum_hi + round) >> shift);
  }
}

void dwt_horizontal_s123(const int32_t* lo, const int32_t* hi, const std::array<int, 4>* taps,
                         int out_width, int scale, int32_t* a, int32_t* v, int32_t* h, int32_t* d) {
  const int64_t round = kHorizontalRound[scale - 1];
  const int shift = kHorizontalShift[scale - 1];
  for (int j = 0; j < out_width; ++j) {
    a[j] = tap_s123(lo, taps[j], kDwtLow, round, shift);
    v[j] = tap_s123(lo, taps[j], kDwtHigh, round, shift);
    h[j] = tap_s123(hi, taps[j], kDwtLow, round, shift);
    d[j] = tap_s123(hi, taps[j], kDwtHigh, round, shift);
  }
}

}  // namespace exactvq::adm
