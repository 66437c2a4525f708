// psnr_hvs's constants and its integer transform, shared by the scalar
// reference and every engine (docs/spec/psnr_hvs.md): libvmaf 3.2.0's Xiph
// PSNR-HVS (third_party/xiph/psnr_hvs.c). Only constant tables here (the
// transform itself is block_terms.h's, portable to the devices): the
// definition calls no C library function but sqrt (correctly rounded) on data,
// and log10 on the host (reference.cpp's decibels, through exactvq::libm).
#pragma once

#include <cstdint>

#include "metrics/psnr_hvs/block_terms.h"

namespace exactvq::psnr_hvs {

// Blocks of 8x8 samples, one every 7 samples in each direction (they overlap by
// one row and one column), while the block fits: y + 7 < height, x + 7 < width.
inline constexpr int kBlock = 8;
inline constexpr int kStep = 7;
// libvmaf refuses deeper samples.
inline constexpr int kMaxBitdepth = 12;

// The contrast sensitivity weights of each DCT coefficient, plane by plane (Y,
// then the 4:2:0 Cb and Cr tables, which libvmaf applies to chroma of every
// subsampling), as the decimal doubles of the source; libvmaf's tables are
// binary32, each entry rounded once from the double (csf_weight).
inline constexpr double kCsfDecimal[3][kBlock][kBlock] = {
    {{1.6193873005, 2.2901594831, 2.08509755623, 1.48366094411, 1.00227514334, 0.678296995242,
      0.466224900598, 0.3265091542},
     {2.2901594831, 1.94321815382, 2.04793073064, 1.68731108984, 1.2305666963, 0.868920337363,
      0.61280991668, 0.436405793551},
     {2.08509755623, 2.04793073064, 1.34329019223, 1.09205635862, 0.875748795257, 0.670882927016,
      0.501731932449, 0.372504254596},
     {1.48366094411, 1.68731108984, 1.09205635862, 0.772819797575, 0.605636379554, 0.48309405692,
      0.380429446972, 0.295774038565},
     {1.00227514334, 1.2305666963, 0.875748795257, 0.605636379554, 0.448996256676, 0.352889268808,
      0.283006984131, 0.226951348204},
     {0.678296995242, 0.868920337363, 0.670882927016, 0.48309405692, 0.352889268808, 0.27032073436,
      0.215017739696, 0.17408067321},
     {0.466224900598, 0.61280991668, 0.501731932449, 0.380429446972, 0.283006984131, 0.215017739696,
      0.168869545842, 0.136153931001},
     {0.3265091542, 0.436405793551, 0.372504254596, 0.295774038565, 0.226951348204, 0.17408067321,
      0.136153931001, 0.109083846276}},
    {{1.91113096927, 2.46074210438, 1.18284184739, 1.14982565193, 1.05017074788, 0.898018824055,
      0.74725392039, 0.615105596242},
     {2.46074210438, 1.58529308355, 1.21363250036, 1.38190029285, 1.33100189972, 1.17428548929,
      0.996404342439, 0.830890433625},
     {1.18284184739, 1.21363250036, 0.978712413627, 1.02624506078, 1.03145147362, 0.960060382087,
      0.849823426169, 0.731221236837},
     {1.14982565193, 1.38190029285, 1.02624506078, 0.861317501629, 0.801821139099, 0.751437590932,
      0.685398513368, 0.608694761374},
     {1.05017074788, 1.33100189972, 1.03145147362, 0.801821139099, 0.676555426187, 0.605503172737,
      0.55002013668, 0.495804539034},
     {0.898018824055, 1.17428548929, 0.960060382087, 0.751437590932, 0.605503172737, 0.514674450957,
      0.454353482512, 0.407050308965},
     {0.74725392039, 0.996404342439, 0.849823426169, 0.685398513368, 0.55002013668, 0.454353482512,
      0.389234902883, 0.342353999733},
     {0.615105596242, 0.830890433625, 0.731221236837, 0.608694761374, 0.495804539034,
      0.407050308965, 0.342353999733, 0.295530605237}},
    {{2.03871978502, 2.62502345193, 1.26180942886, 1.11019789803, 1.01397751469, 0.867069376285,
      0.721500455585, 0.593906509971},
     {2.62502345193, 1.69112867013, 1.17180569821, 1.3342742857, 1.28513006198, 1.13381474809,
      0.962064122248, 0.802254508198},
     {1.26180942886, 1.17180569821, 0.944981930573, 0.990876405848, 0.995903384143, 0.926972725286,
      0.820534991409, 0.706020324706},
     {1.11019789803, 1.3342742857, 0.990876405848, 0.831632933426, 0.77418706195, 0.725539939514,
      0.661776842059, 0.587716619023},
     {1.01397751469, 1.28513006198, 0.995903384143, 0.77418706195, 0.653238524286, 0.584635025748,
      0.531064164893, 0.478717061273},
     {0.867069376285, 1.13381474809, 0.926972725286, 0.725539939514, 0.584635025748, 0.496936637883,
      0.438694579826, 0.393021669543},
     {0.721500455585, 0.962064122248, 0.820534991409, 0.661776842059, 0.531064164893,
      0.438694579826, 0.375820256136, 0.330555063063},
     {0.593906509971, 0.802254508198, 0.706020324706, 0.587716619023, 0.478717061273,
      0.393021669543, 0.330555063063, 0.285345396658}}};

// Coefficient (i, j)'s weight in plane p's table, binary32.
inline float csf_weight(int p, int i, int j) { return float(kCsfDecimal[p][i][j]); }

// The masking weight of a coefficient: (csf * k)^2 with k = 0.3885746225901003,
// each product in binary64, the square rounded to binary32 once.
inline float masking_weight(float csf) {
  constexpr double k = 0.3885746225901003;
  const double scaled = double(csf) * k;
  return float(scaled * scaled);
}

// The factors that turn a sum of squared deviations into 64/63 (whole block) and
// 16/15 (quarter) of it: 1/63 then times 64 (and 1/15 times 16), each in binary32.
inline constexpr float kBlockVarianceScale = 1.0f / 63.0f * 64.0f;
inline constexpr float kQuarterVarianceScale = 1.0f / 15.0f * 16.0f;

// The integer transform is block_terms.h's, written once for the CPU and the
// devices; these are its C++ names.

// Rounds a / 2^shift toward zero (Daala's unbiased shift). 32-bit arithmetic.
inline int32_t unbiased_shift(int32_t a, int shift) { return psnr_hvs_unbiased_shift(a, shift); }

// a * c rounded at 2^shift: (a * c + 2^(shift - 1)) >> shift, arithmetic shift.
// Every product stays within 32 bits for samples of up to kMaxBitdepth bits
// (tests/metrics/psnr_hvs/reference_test.cpp checks the bound).
inline int32_t lift(int32_t a, int32_t c, int shift) { return psnr_hvs_lift(a, c, shift); }

// Daala's 8-point integer DCT-II (od_bin_fdct8: lifting steps, scaled so that it
// is close to orthonormal) of x[0], x[stride], ... x[7 * stride] into y[0..7].
inline void fdct8(int32_t y[8], const int32_t* x, int stride) { psnr_hvs_fdct8(y, x, stride); }

// The 8x8 transform of a block in place (row-major, 8 a row): each column's
// transform becomes a row of a scratch block, then each of the scratch block's
// columns becomes a row of the result: block[u * 8 + v] is vertical frequency
// u, horizontal frequency v.
inline void fdct8x8(int32_t block[kBlock * kBlock]) { psnr_hvs_fdct8x8(block); }

}  // namespace exactvq::psnr_hvs
