// block_terms.h, the per-block arithmetic the CUDA and OpenCL kernels run,
// compiled here as host C++ and held to the scalar reference bit for bit: a
// block's 64 terms with native divisions and square root (CUDA's) and with
// softfp's (OpenCL's where the device does not round / and sqrt correctly), on seeded random and
// edge blocks of 8 to 12 bits in every plane's weights; softfp's quotient and threshold against the
// CPU's on random binary32 values; the binary32 threshold (OpenCL's where division and sqrt are
// correctly rounded) against the binary64 one; no subnormal value anywhere in the block's steps;
// and the sequential plane sum against plane_error_sum_reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "metrics/psnr_hvs/block_terms.h"
#include "metrics/psnr_hvs/reference.h"

namespace exactvq::psnr_hvs {
namespace {

using Block = std::array<int32_t, kCoefficients>;

uint32_t bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// The plane's weights as the kernels read them: csf[64], then mask[64].
std::vector<float> device_weights(int plane) {
  const PlaneWeights w = plane_weights(plane);
  std::vector<float> out(w.csf, w.csf + kCoefficients);
  out.insert(out.end(), w.mask, w.mask + kCoefficients);
  return out;
}

// Block pairs of `bitdepth` bits: random, near-equal, flat, extremes, one
// sample apart, checkerboards, ramps.
std::vector<std::pair<Block, Block>> block_pairs(int bitdepth, uint64_t seed, int random) {
  std::mt19937_64 rng(seed);
  const int32_t top = (1 << bitdepth) - 1;
  std::uniform_int_distribution<int32_t> sample(0, top), small(-3, 3);
  std::vector<std::pair<Block, Block>> all;
  for (int n = 0; n < random; ++n) {
    Block a, b;
    for (int k = 0; k < kCoefficients; ++k) {
      a[size_t(k)] = sample(rng);
      // Half the pairs close (masking matters), half independent.
      b[size_t(k)] = n % 2 ? std::clamp(a[size_t(k)] + small(rng), 0, top) : sample(rng);
    }
    all.emplace_back(a, b);
  }
  const auto filled = [](auto f) {
    Block b;
    for (int i = 0; i < kBlock; ++i)
      for (int j = 0; j < kBlock; ++j) b[size_t(i * kBlock + j)] = f(i, j);
    return b;
  };
  const Block zero = filled([](int, int) { return 0; });
  const Block full = filled([top](int, int) { return top; });
  const Block checker = filled([top](int i, int j) { return (i + j) % 2 ? top : 0; });
  const Block ramp = filled([top](int i, int j) { return (i * 8 + j) * top / 63; });
  Block one_off = zero;
  one_off[9] = 1;
  all.emplace_back(zero, zero);
  all.emplace_back(zero, full);
  all.emplace_back(full, checker);
  all.emplace_back(checker, ramp);
  all.emplace_back(ramp, ramp);
  all.emplace_back(zero, one_off);
  all.emplace_back(one_off, ramp);
  return all;
}

bool subnormal(float v) { return std::fpclassify(v) == FP_SUBNORMAL; }

TEST(PsnrHvsBlockTerms, EqualTheReferenceNativeAndSoft) {
  int compared = 0;
  for (int bitdepth : {8, 10, 12})
    for (int plane = 0; plane < 3; ++plane) {
      const PlaneWeights w = plane_weights(plane);
      const std::vector<float> dw = device_weights(plane);
      for (const auto& [a, b] :
           block_pairs(bitdepth, 0x70c5'0000u + uint64_t(bitdepth * 3 + plane), 400)) {
        Block ra = a, rb = b;
        float want[kCoefficients];
        block_terms(ra.data(), rb.data(), w, want);
        for (int soft : {0, 1}) {
          Block da = a, db = b;
          float got[kCoefficients];
          psnr_hvs_block_terms(da.data(), db.data(), dw.data(), dw.data() + kCoefficients,
                               kBlockVarianceScale, kQuarterVarianceScale, soft, got);
          ASSERT_EQ(std::memcmp(want, got, sizeof want), 0)
              << "bitdepth " << bitdepth << " plane " << plane << " soft " << soft;
          ASSERT_EQ(da, ra);  // the transforms, in place
          ++compared;
        }
      }
    }
  EXPECT_GT(compared, 7000);
}

// The spec's "Ranges": ratios, thresholds, masked quotients and terms are zero
// or normal, so softfp's binary32 rounding (normal results only) applies and a
// device that flushes subnormals changes nothing.
TEST(PsnrHvsBlockTerms, NoValueIsSubnormal) {
  for (int bitdepth : {8, 12})
    for (int plane = 0; plane < 3; ++plane) {
      const std::vector<float> dw = device_weights(plane);
      for (auto [a, b] : block_pairs(bitdepth, 0x5b'0000u + uint64_t(bitdepth + plane), 300)) {
        const float ra =
            psnr_hvs_variance_ratio(a.data(), kBlockVarianceScale, kQuarterVarianceScale, 0);
        const float rb =
            psnr_hvs_variance_ratio(b.data(), kBlockVarianceScale, kQuarterVarianceScale, 0);
        ASSERT_FALSE(subnormal(ra) || subnormal(rb));
        Block ta = a, tb = b;
        psnr_hvs_fdct8x8(ta.data());
        psnr_hvs_fdct8x8(tb.data());
        const float t = std::max(psnr_hvs_masking_threshold(ta.data(), ra, dw.data() + 64, 0),
                                 psnr_hvs_masking_threshold(tb.data(), rb, dw.data() + 64, 0));
        ASSERT_FALSE(subnormal(t));
        for (int k = 1; k < kCoefficients; ++k) ASSERT_FALSE(subnormal(t / dw[size_t(64 + k)]));
        float terms[kCoefficients];
        psnr_hvs_block_terms(a.data(), b.data(), dw.data(), dw.data() + 64, kBlockVarianceScale,
                             kQuarterVarianceScale, 0, terms);
        for (float v : terms) ASSERT_FALSE(subnormal(v));
      }
    }
}

TEST(PsnrHvsBlockTerms, SoftQuotientAndThresholdAreTheCpus) {
  std::mt19937_64 rng(0xd1'7a5e);
  // Magnitudes of the definition's operands, and a wider spread of normal values.
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  std::uniform_int_distribution<int> exponent(-40, 40);
  const auto value = [&] { return std::ldexp(mantissa(rng), exponent(rng)); };
  for (int n = 0; n < 200000; ++n) {
    const float a = value(), b = value();
    ASSERT_EQ(bits(psnr_hvs_soft_quotient(a, b)), bits(a / b)) << a << " / " << b;
    ASSERT_EQ(bits(psnr_hvs_quotient(a, b, 1)), bits(psnr_hvs_quotient(a, b, 0)));
    ASSERT_EQ(bits(psnr_hvs_soft_threshold(a)), bits(float(std::sqrt(double(a)) / 32.0))) << a;
  }
  // Integers over powers of two and zero numerators: the masking cases.
  for (int i = 0; i < 5000; ++i) {
    const float a = float(i), b = std::ldexp(1.0f, i % 20 - 10);
    ASSERT_EQ(bits(psnr_hvs_soft_quotient(a, b)), bits(a / b));
    ASSERT_EQ(bits(psnr_hvs_soft_threshold(a)), bits(float(std::sqrt(double(a)) / 32.0)));
  }
}

// OpenCL's threshold in binary32 alone (a program built with correctly rounded
// division and sqrt) is the binary64 path's, f32(sqrt(f64(x)) / 32), on every
// 61st non-negative finite binary32 value, every power of two and its
// neighbours (the subnormals included, though the definition has none).
TEST(PsnrHvsBlockTerms, Binary32ThresholdIsTheBinary64Ones) {
  const auto same = [](uint32_t b) {
    float x;
    std::memcpy(&x, &b, sizeof x);
    return bits(psnr_hvs_binary32_threshold(x)) == bits(psnr_hvs_threshold(x, 0));
  };
  int64_t compared = 0;
  for (uint32_t b = 0; b < 0x7f800000u; b += 61, ++compared)
    ASSERT_TRUE(same(b)) << "bits 0x" << std::hex << b;
  for (uint32_t e = 0; e < 0xff; ++e)
    for (uint32_t b : {e << 23, (e << 23) + 1, (e << 23) | 0x7fffffu}) {
      ASSERT_TRUE(same(b)) << "bits 0x" << std::hex << b;
      ++compared;
    }
  EXPECT_GT(compared, 35'000'000);
}

// The plane sum over terms laid out as the kernels write them (blocks in
// raster order, 64 each) is the reference's plane sum.
TEST(PsnrHvsBlockTerms, PlaneSumIsTheReferenceSum) {
  std::mt19937_64 rng(0x5a'0e5);
  for (const auto [w, h, bitdepth] : {std::array{8, 8, 8}, std::array{23, 17, 10},
                                      std::array{64, 36, 12}, std::array{129, 71, 8}}) {
    const int top = (1 << bitdepth) - 1;
    std::uniform_int_distribution<int> sample(0, top), small(-4, 4);
    std::vector<uint16_t> a(size_t(w * h)), b(size_t(w * h));
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = uint16_t(sample(rng));
      b[i] = uint16_t(std::clamp(int(a[i]) + small(rng), 0, top));
    }
    const PlaneView ra{reinterpret_cast<const uint8_t*>(a.data()), w * 2, w, h, 2};
    const PlaneView rb{reinterpret_cast<const uint8_t*>(b.data()), w * 2, w, h, 2};
    for (int plane = 0; plane < 3; ++plane) {
      const std::vector<float> dw = device_weights(plane);
      std::vector<float> terms;
      for (int y = 0; y + kBlock <= h; y += kStep)
        for (int x = 0; x + kBlock <= w; x += kStep) {
          int32_t r[kCoefficients], d[kCoefficients];
          load_block(ra, x, y, r);
          load_block(rb, x, y, d);
          terms.resize(terms.size() + kCoefficients);
          psnr_hvs_block_terms(r, d, dw.data(), dw.data() + 64, kBlockVarianceScale,
                               kQuarterVarianceScale, 1, terms.data() + terms.size() - 64);
        }
      ASSERT_EQ(terms.size(), size_t(kCoefficients * blocks_along(w) * blocks_along(h)));
      EXPECT_EQ(bits(psnr_hvs_plane_sum(terms.data(), int64_t(terms.size()))),
                bits(plane_error_sum_reference(ra, rb, plane)))
          << w << "x" << h << " plane " << plane;
    }
  }
  EXPECT_EQ(bits(psnr_hvs_plane_sum(nullptr, 0)), bits(0.0f));
}

}  // namespace
}  // namespace exactvq::psnr_hvs
