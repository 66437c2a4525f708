// cambi's reference stages on small hand-made cases: the conversion to 10
// bits, the anti-dithering pass, the mode filter, decimation, the mask's
// threshold, the EOTFs and the top-k pooling's selection.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <vector>

#include "metrics/cambi/luminance.h"
#include "metrics/cambi/reference.h"

namespace exactvq::cambi {
namespace {

TEST(CambiReference, AntiDitherMeansTheSamplesBeforeThePass) {
  std::vector<uint16_t> image = {4,  8,  12,  //
                                 16, 20, 25};
  anti_dither(image.data(), 3, 2);
  EXPECT_EQ(image, (std::vector<uint16_t>{(4 + 8 + 16 + 20) >> 2, (8 + 12 + 20 + 25) >> 2,
                                          (12 + 25) >> 1, (16 + 20) >> 1, (20 + 25) >> 1, 25}));
}

TEST(CambiReference, ModeFilterTakesTheMajorityElseTheSmallest) {
  // Rows 0 and 2 stay; row 1 is mode3 down the columns of the rows' horizontal passes.
  std::vector<uint16_t> image = {1, 2, 3, 4,  //
                                 5, 5, 9, 9,  //
                                 7, 1, 7, 2};
  mode_filter(image.data(), 4, 3);
  // Horizontal passes: {1, 1, 2, 4}, {5, 5, 9, 9}, {7, 7, 1, 2}.
  EXPECT_EQ(image, (std::vector<uint16_t>{1, 2, 3, 4, 1, 1, 1, 2, 7, 1, 7, 2}));
}

TEST(CambiReference, DecimateKeepsEveryOtherSample) {
  std::vector<uint16_t> image(5 * 3);
  for (size_t i = 0; i < image.size(); ++i) image[i] = uint16_t(i);
  decimate(image.data(), 5, 3);
  EXPECT_EQ(std::vector<uint16_t>(image.begin(), image.begin() + 6),
            (std::vector<uint16_t>{0, 2, 4, 10, 12, 14}));
}

TEST(CambiReference, MaskThresholdFollowsTheArea) {
  EXPECT_EQ(mask_threshold(576, 324), 16);
  EXPECT_EQ(mask_threshold(1920, 1080), 21);
  EXPECT_EQ(mask_threshold(3840, 2160), 24);
  EXPECT_EQ(mask_threshold(216, 216), 13);
  EXPECT_EQ(mask_threshold(63, 4000), 7);
}

TEST(CambiReference, EotfsSpanTheirRanges) {
  EXPECT_DOUBLE_EQ(luminance(kLumaFoot, Eotf::kBt1886), 0.01);
  EXPECT_DOUBLE_EQ(luminance(kLumaHead, Eotf::kBt1886), 300.0);
  EXPECT_EQ(luminance(0, Eotf::kPq), 0.0);
  EXPECT_DOUBLE_EQ(luminance(1023, Eotf::kPq), 10000.0);
}

TEST(CambiReference, PoolingAveragesTheLargestValues) {
  std::mt19937 rng(7);
  for (int n : {1, 2, 3, 10, 97, 1000}) {
    for (double topk : {0.0001, 0.2, 0.6, 1.0}) {
      std::vector<float> values(static_cast<size_t>(n));
      for (float& v : values) v = float(rng() % 50) / 7.0f;  // many ties
      std::vector<float> sorted = values;
      std::sort(sorted.begin(), sorted.end(), std::greater<>());
      const int k = std::clamp(int(topk * n), 1, n);
      pool_topk(values, topk);
      std::vector<float> chosen(values.begin(), values.begin() + k);
      std::sort(chosen.begin(), chosen.end(), std::greater<>());
      EXPECT_EQ(chosen, std::vector<float>(sorted.begin(), sorted.begin() + k)) << n << " " << topk;
    }
  }
}

}  // namespace
}  // namespace exactvq::cambi
