// Scores in decibels (spec/ssim.md "Decibels"), computed once on the host.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "libm/libm.h"

namespace exactvq::ssim {

// ceil(10 * log10(M*M / (0.5 / (W*H)))) for a W x H plane of maximum sample M.
inline double clip_db_limit(uint32_t max_sample, int width, int height) {
  const double m = static_cast<double>(max_sample);
  const double mse = 0.5 / (static_cast<double>(width) * static_cast<double>(height));
  return std::ceil(10.0 * libm::log10(m * m / mse));
}

// min(-10 * log10(1 - score), max_db), with libvmaf's MIN(a, b) = a < b ? a : b.
// A score of exactly 1 gives +infinity unless max_db clips it.
inline double to_db(double score, double max_db = std::numeric_limits<double>::infinity()) {
  const double db = -10.0 * libm::log10(1.0 - score);
  return db < max_db ? db : max_db;
}

}  // namespace exactvq::ssim
