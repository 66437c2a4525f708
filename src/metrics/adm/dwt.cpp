#include "metrics/adm/dwt.h"

#include <cstddef>

#include "metrics/adm/definition.h"

namespace exactvq::adm {

// The SIMD twins take the taps from dwt.h, the reference, CUDA and OpenCL from definition.h.
static_assert(kDwtLow[0] == adm_dwt_low(0) && kDwtLow[1] == adm_dwt_low(1) &&
              kDwtLow[2] == adm_dwt_low(2) && kDwtLow[3] == adm_dwt_low(3) &&
              kDwtHigh[0] == adm_dwt_high(0) && kDwtHigh[1] == adm_dwt_high(1) &&
              kDwtHigh[2] == adm_dwt_high(2) && kDwtHigh[3] == adm_dwt_high(3) &&
              kDwtLowSum == 46342);

namespace {

// The per-sample arithmetic is definition.h's, shared with the CUDA and OpenCL kernels.
template <typename Sample>
void vertical0(const Sample* const rows[4], int width, int bitdepth, int16_t* lo, int16_t* hi) {
  for (int j = 0; j < width; ++j) {
    const int64_t s[4] = {rows[0][j], rows[1][j], rows[2][j], rows[3][j]};
    lo[j] = adm_dwt0_vertical_lo(s, bitdepth);
    if (hi != nullptr) hi[j] = adm_dwt0_vertical_hi(s, bitdepth);
  }
}

template <typename T>
void gather(const T* src, const std::array<int, 4>& t, T x[4]) {
  for (int k = 0; k < 4; ++k) x[k] = src[t[k]];
}

}  // namespace

std::vector<std::array<int, 4>> dwt_taps(int length) {
  std::vector<std::array<int, 4>> taps(static_cast<size_t>((length + 1) / 2));
  for (int i = 0; i < static_cast<int>(taps.size()); ++i)
    for (int k = 0; k < 4; ++k) taps[i][k] = adm_dwt_mirror(2 * i - 1 + k, length);
  return taps;
}

void dwt0_vertical(const uint8_t* const rows[4], int width, int16_t* lo, int16_t* hi) {
  vertical0(rows, width, 8, lo, hi);
}

void dwt0_vertical(const uint16_t* const rows[4], int width, int bitdepth, int16_t* lo,
                   int16_t* hi) {
  vertical0(rows, width, bitdepth, lo, hi);
}

void dwt0_horizontal(const int16_t* lo, const int16_t* hi, const std::array<int, 4>* taps,
                     int out_width, int16_t* a, int16_t* v, int16_t* h, int16_t* d) {
  for (int j = 0; j < out_width; ++j) {
    int16_t x[4];
    gather(lo, taps[j], x);
    a[j] = adm_dwt0_horizontal_low(x);
    if (hi == nullptr) continue;
    v[j] = adm_dwt0_horizontal_high(x);
    gather(hi, taps[j], x);
    h[j] = adm_dwt0_horizontal_low(x);
    d[j] = adm_dwt0_horizontal_high(x);
  }
}

void dwt_vertical_s123(const int32_t* const rows[4], int width, int scale, int32_t* lo,
                       int32_t* hi) {
  const int64_t round = adm_dwt_s123_vertical_round(scale);
  const int shift = adm_dwt_s123_vertical_shift(scale);
  for (int j = 0; j < width; ++j) {
    const int32_t x[4] = {rows[0][j], rows[1][j], rows[2][j], rows[3][j]};
    lo[j] = adm_dwt_s123_tap(x, true, round, shift);
    if (hi != nullptr) hi[j] = adm_dwt_s123_tap(x, false, round, shift);
  }
}

void dwt_vertical_s1(const int16_t* const rows[4], int width, int32_t* lo, int32_t* hi) {
  const int64_t round = adm_dwt_s123_vertical_round(1);
  const int shift = adm_dwt_s123_vertical_shift(1);
  for (int j = 0; j < width; ++j) {
    const int32_t x[4] = {rows[0][j], rows[1][j], rows[2][j], rows[3][j]};
    lo[j] = adm_dwt_s123_tap(x, true, round, shift);
    if (hi != nullptr) hi[j] = adm_dwt_s123_tap(x, false, round, shift);
  }
}

void dwt_horizontal_s123(const int32_t* lo, const int32_t* hi, const std::array<int, 4>* taps,
                         int out_width, int scale, int32_t* a, int32_t* v, int32_t* h, int32_t* d) {
  const int64_t round = adm_dwt_s123_horizontal_round(scale);
  const int shift = adm_dwt_s123_horizontal_shift(scale);
  for (int j = 0; j < out_width; ++j) {
    int32_t x[4];
    gather(lo, taps[j], x);
    a[j] = adm_dwt_s123_tap(x, true, round, shift);
    if (hi == nullptr) continue;
    v[j] = adm_dwt_s123_tap(x, false, round, shift);
    gather(hi, taps[j], x);
    h[j] = adm_dwt_s123_tap(x, true, round, shift);
    d[j] = adm_dwt_s123_tap(x, false, round, shift);
  }
}

}  // namespace exactvq::adm
