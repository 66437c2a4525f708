// psnr_hvs's reference, step by step: the integer transform (known answers, and
// every intermediate value and product within 32 bits at 12 bits), the
// variance ratio, the block terms and the plane sums on small known cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "metrics/psnr_hvs/definition.h"
#include "metrics/psnr_hvs/reference.h"

namespace exactvq::psnr_hvs {
namespace {

// The transform again in 64 bits, recording the largest magnitude of every
// value and product it forms: the 32-bit transform is exact while that stays
// below 2^31.
struct WideTransform {
  int64_t largest = 0;

  int64_t seen(int64_t v) {
    largest = std::max(largest, v < 0 ? -v : v);
    return v;
  }
  int64_t half(int64_t a) { return seen(a < 0 ? -((-a) >> 1) : a >> 1); }  // toward zero
  int64_t lift(int64_t a, int64_t c, int shift) {
    return seen(seen(seen(a * c) + (int64_t{1} << (shift - 1))) >> shift);
  }
  void fdct8(int64_t y[8], const int64_t* x, int stride) {
    int64_t t0 = x[0], t4 = x[stride], t2 = x[2 * stride], t6 = x[3 * stride];
    int64_t t7 = x[4 * stride], t3 = x[5 * stride], t5 = x[6 * stride], t1 = x[7 * stride];
    t1 = seen(t0 - t1);
    const int64_t t1h = half(t1);
    t0 = seen(t0 - t1h);
    t4 = seen(t4 + t5);
    const int64_t t4h = half(t4);
    t5 = seen(t5 - t4h);
    t3 = seen(t2 - t3);
    t2 = seen(t2 - half(t3));
    t6 = seen(t6 + t7);
    const int64_t t6h = half(t6);
    t7 = seen(t6h - t7);
    t0 = seen(t0 + t6h);
    t6 = seen(t0 - t6);
    t2 = seen(t4h - t2);
    t4 = seen(t2 - t4);
    t0 = seen(t0 - lift(t4, 13573, 15));
    t4 = seen(t4 + lift(t0, 11585, 14));
    t0 = seen(t0 - lift(t4, 13573, 15));
    t6 = seen(t6 - lift(t2, 21895, 15));
    t2 = seen(t2 + lift(t6, 15137, 14));
    t6 = seen(t6 - lift(t2, 21895, 15));
    t3 = seen(t3 + lift(t5, 19195, 15));
    t5 = seen(t5 + lift(t3, 11585, 14));
    t3 = seen(t3 - lift(t5, 7489, 13));
    t7 = seen(half(t5) - t7);
    t5 = seen(t5 - t7);
    t3 = seen(t1h - t3);
    t1 = seen(t1 - t3);
    t7 = seen(t7 + lift(t1, 3227, 15));
    t1 = seen(t1 - lift(t7, 6393, 15));
    t7 = seen(t7 + lift(t1, 3227, 15));
    t5 = seen(t5 + lift(t3, 2485, 13));
    t3 = seen(t3 - lift(t5, 18205, 15));
    t5 = seen(t5 + lift(t3, 2485, 13));
    const int64_t out[8] = {t0, t1, t2, t3, t4, t5, t6, t7};
    std::copy(out, out + 8, y);
  }
  void fdct8x8(int64_t b[64]) {
    int64_t columns[64];
    for (int i = 0; i < 8; ++i) fdct8(columns + 8 * i, b + i, 8);
    for (int i = 0; i < 8; ++i) fdct8(b + 8 * i, columns + i, 8);
    for (int k = 1; k < 64; ++k) seen(b[k] * b[k]);  // the masking energy's squares
  }
};

TEST(PsnrHvsTransform, ConstantBlockHasOnlyDc) {
  for (int32_t v : {0, 1, 255, 1023, 4095}) {
    int32_t b[64];
    std::fill(b, b + 64, v);
    fdct8x8(b);
    // Orthonormal scale: the DC is about the sum / 8 (the lifts round).
    EXPECT_LE(std::abs(b[0] - 8 * v), 2) << v;
    for (int k = 1; k < 64; ++k) EXPECT_EQ(b[k], 0) << v << " coefficient " << k;
  }
}

// Blocks of 0 and 4095 in the sign pattern of every cosine basis function (the
// inputs that drive a coefficient furthest), their negatives, and random
// extremes: the 32-bit transform equals the 64-bit one and no value or product
// reaches 2^31.
TEST(PsnrHvsTransform, TwelveBitProductsStayWithin32Bits) {
  const int32_t peak = (1 << kMaxBitdepth) - 1;
  std::vector<std::vector<int32_t>> blocks;
  for (int u = 0; u < 8; ++u)
    for (int v = 0; v < 8; ++v)
      for (bool inverted : {false, true}) {
        std::vector<int32_t> b(64);
        for (int i = 0; i < 8; ++i)
          for (int j = 0; j < 8; ++j) {
            const double c =
                std::cos((2 * i + 1) * u * M_PI / 16) * std::cos((2 * j + 1) * v * M_PI / 16);
            b[size_t(i * 8 + j)] = (c >= 0) != inverted ? peak : 0;
          }
        blocks.push_back(b);
      }
  std::mt19937 rng(20261205);
  for (int n = 0; n < 200000; ++n) {
    std::vector<int32_t> b(64);
    for (auto& s : b) s = n % 2 ? (rng() % 2 ? peak : 0) : int32_t(rng() % uint32_t(peak + 1));
    blocks.push_back(b);
  }
  WideTransform wide;
  for (const auto& b : blocks) {
    int32_t narrow[64];
    int64_t w[64];
    std::copy(b.begin(), b.end(), narrow);
    std::copy(b.begin(), b.end(), w);
    fdct8x8(narrow);
    wide.fdct8x8(w);
    for (int k = 0; k < 64; ++k) ASSERT_EQ(int64_t{narrow[k]}, w[k]) << "coefficient " << k;
  }
  EXPECT_LT(wide.largest, int64_t{1} << 31);
  std::printf("[ bound    ] largest 12-bit transform value or product: %lld (2^31 = %lld)\n",
              static_cast<long long>(wide.largest), static_cast<long long>(int64_t{1} << 31));
}

TEST(PsnrHvsTransform, UnbiasedShiftRoundsTowardZero) {
  for (int32_t a = -20; a <= 20; ++a)
    for (int s : {1, 2}) EXPECT_EQ(unbiased_shift(a, s), a / (1 << s)) << a << " " << s;
}

TEST(PsnrHvsReference, VarianceRatio) {
  int32_t flat[64];
  std::fill(flat, flat + 64, 77);
  EXPECT_EQ(variance_ratio(flat), 0.0f);  // no variance: the ratio stays 0
  // Four flat quarters of different levels: each quarter has no variance.
  int32_t quarters[64];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) quarters[i * 8 + j] = (i >= 4 ? 10 : 0) + (j >= 4 ? 20 : 0);
  EXPECT_EQ(variance_ratio(quarters), 0.0f);
  // Rows alternating 0 and 2: every quarter varies as the block does, so the
  // ratio is (4 * 16/15 * 16) / (64/63 * 64) in binary32 steps.
  int32_t rows[64];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) rows[i * 8 + j] = i % 2 ? 2 : 0;
  const float quarter = 16.0f * kQuarterVarianceScale;
  EXPECT_EQ(variance_ratio(rows),
            (quarter + quarter + quarter + quarter) / (64.0f * kBlockVarianceScale));
}

TEST(PsnrHvsReference, MaskingWeightsAreTheScaledSquaredCsf) {
  const PlaneWeights w = plane_weights(0);
  EXPECT_EQ(w.csf[0], 1.6193873005f);
  const double k = 1.6193873005f * 0.3885746225901003;
  EXPECT_EQ(w.mask[0], float(k * k));
  // Cb and Cr use the 4:2:0 chroma tables.
  EXPECT_EQ(plane_weights(1).csf[1], float(2.46074210438));
  EXPECT_EQ(plane_weights(2).csf[63], float(0.285345396658));
}

TEST(PsnrHvsReference, BlocksAlongASide) {
  EXPECT_EQ(blocks_along(7), 0);
  EXPECT_EQ(blocks_along(8), 1);
  EXPECT_EQ(blocks_along(14), 1);
  EXPECT_EQ(blocks_along(15), 2);  // blocks at 0 and 7
  EXPECT_EQ(blocks_along(576), 82);
}

// A uniform offset d between two flat planes: only the DC differs (by about
// 8 d), and is never masked, so every block adds (DC difference * csf)^2 and 63
// zeros.
TEST(PsnrHvsReference, FlatPlanesDifferOnlyInDc) {
  const int w = 22, h = 15, d = 3;
  std::vector<uint8_t> a(size_t(w * h), 100), b(size_t(w * h), uint8_t(100 + d));
  const PlaneView ra{a.data(), w, w, h, 1}, rb{b.data(), w, w, h, 1};
  int32_t fa[64], fb[64];
  std::fill(fa, fa + 64, 100);
  std::fill(fb, fb + 64, 100 + d);
  fdct8x8(fa);
  fdct8x8(fb);
  const float dc = float(fb[0] - fa[0]), csf = plane_weights(0).csf[0];
  const float term = (dc * csf) * (dc * csf);
  float want = 0;
  for (int k = 0; k < blocks_along(w) * blocks_along(h); ++k)
    for (int c = 0; c < 64; ++c) want += c == 0 ? term : 0.0f;
  EXPECT_EQ(plane_error_sum_reference(ra, rb, 0), want);
  EXPECT_EQ(plane_error_sum_reference(ra, ra, 0), 0.0f);
  EXPECT_EQ(decibels(plane_score(0.0f, w, h, 8)), std::numeric_limits<double>::infinity());
  const float score = want / float(64 * 6) / float(255 * 255);
  EXPECT_EQ(plane_score(want, w, h, 8), double(score));
}

}  // namespace
}  // namespace exactvq::psnr_hvs
