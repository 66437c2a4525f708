// PSNR from sums of squared errors, as libvmaf's integer `psnr` feature
// (integer_psnr.c) computes it: plain host functions, so that every backend
// turns its exact integer SSE into decibels by the same binary64 operations.
#pragma once

#include <cmath>
#include <cstdint>

#include "libm/libm.h"

namespace exactvq::psnr {

__extension__ typedef unsigned __int128 uint128;  // GCC and Clang

// libvmaf's peak sample value: 2^b - 1, or 255 * 2^(b-8) with reduced_hbd_peak
// (which scales 8-bit content's peak; at 8 bits both are 255).
inline uint32_t peak_value(int bitdepth, bool reduced_hbd_peak) {
  return reduced_hbd_peak ? uint32_t{255} << (bitdepth - 8) : (uint32_t{1} << bitdepth) - 1;
}

// peak * peak: below 2^32 for every peak above (65535^2 and 65280^2).
inline double peak_squared(uint32_t peak) { return static_cast<double>(peak * peak); }

// The ceiling of a plane's per-frame PSNR: 6 * b + 12 dB; or, when min_sse > 0,
// the PSNR of a frame whose SSE is min_sse, rounded up:
// ceil(10 * log10(peak^2 / (min_sse / samples))).
inline double psnr_max(uint32_t peak, int bitdepth, double min_sse, uint64_t samples) {
  if (min_sse == 0.0) return static_cast<double>(6 * bitdepth + 12);
  const double mse = min_sse / static_cast<double>(samples);
  return std::ceil(10.0 * libm::log10(peak_squared(peak) / mse));
}

inline double mse(uint64_t sse, uint64_t samples) {
  return static_cast<double>(sse) / static_cast<double>(samples);
}

// min(10 * log10(peak^2 / max(mse, 1e-16)), max_db), with libvmaf's
// MAX(a, b) = a > b ? a : b and MIN(a, b) = a < b ? a : b.
inline double psnr_from_mse(double mse_value, uint32_t peak, double max_db) {
  const double floored = mse_value > 1e-16 ? mse_value : 1e-16;
  const double db = 10.0 * libm::log10(peak_squared(peak) / floored);
  return db < max_db ? db : max_db;
}

// The aggregate PSNR of a plane over a run (libvmaf's apsnr_*): the SSE and the
// sample count of every scored frame, summed. 128 bits, so that no run overflows.
struct ApsnrSum {
  uint128 sse = 0;
  uint128 samples = 0;

  void add(uint64_t frame_sse, uint64_t frame_samples) {
    sse += frame_sse;
    samples += frame_samples;
  }
};

// libvmaf's flush(): min(10 * (log10(peak^2) + log10(n) - log10(sse)),
// ceil(10 * log10(peak^2 * n * 2))). An SSE of 0 gives the ceiling. Sums below
// 2^64 (every run libvmaf itself does not overflow) give libvmaf's bits.
inline double aggregate_psnr(const ApsnrSum& s, uint32_t peak) {
  const double n = static_cast<double>(s.samples);
  const double apsnr = 10.0 * (libm::log10(peak_squared(peak)) + libm::log10(n) -
                               libm::log10(static_cast<double>(s.sse)));
  const double ceiling =
      std::ceil(10.0 * libm::log10(static_cast<double>(uint128{peak * peak} * s.samples * 2)));
  return apsnr < ceiling ? apsnr : ceiling;
}

}  // namespace exactvq::psnr
