// The psnr_hvs feature: its options and names, its refusals (depth, monochrome,
// planes under 8x8, devices without its engine), and its values equal to the
// reference's for any number of threads and any batch.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "core/thread_pool.h"
#include "metrics/psnr_hvs/psnr_hvs_feature.h"
#include "metrics/psnr_hvs/reference.h"
#include "metrics/registry.h"

namespace exactvq {
namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::unique_ptr<Feature> psnr_hvs_feature(const VideoFormat& f, ThreadPool* pool = nullptr) {
  return make_feature(parse_feature_spec("psnr_hvs"), FeatureContext{f, pool, nullptr});
}

std::string refusal(const VideoFormat& f) {
  try {
    psnr_hvs_feature(f);
  } catch (const PictureError& e) {
    return e.what();
  }
  return "";
}

// Random samples in every plane; `dist` the same picture with noise.
Picture random_picture(const VideoFormat& f, std::mt19937& rng, const Picture* near = nullptr) {
  Picture p;
  p.allocate(f);
  const int peak = int(f.max_sample());
  for (int plane = 0; plane < f.plane_count(); ++plane) {
    const size_t n = size_t(f.plane_width(plane)) * size_t(f.plane_height(plane));
    for (size_t i = 0; i < n; ++i) {
      int v = int(rng() % uint32_t(peak + 1));
      if (near) {
        const PlaneView base = near->plane(plane);
        const int s =
            f.bitdepth > 8 ? reinterpret_cast<const uint16_t*>(base.data)[i] : base.data[i];
        v = std::clamp(s + int(rng() % 33) - 16, 0, peak);
      }
      if (f.bitdepth > 8)
        reinterpret_cast<uint16_t*>(p.plane_data(plane))[i] = uint16_t(v);
      else
        p.plane_data(plane)[i] = uint8_t(v);
    }
  }
  return p;
}

TEST(PsnrHvsFeature, NamesAndOptions) {
  const auto f = psnr_hvs_feature(VideoFormat{64, 48, ChromaFormat::k420, 8});
  EXPECT_EQ(f->outputs(),
            (std::vector<std::string>{"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"}));
  EXPECT_EQ(f->planes_read(), 3);
  try {
    make_feature(parse_feature_spec("psnr_hvs=enable_chroma=false"),
                 FeatureContext{VideoFormat{64, 48, ChromaFormat::k420, 8}, nullptr, nullptr});
    ADD_FAILURE() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("psnr_hvs: unknown option 'enable_chroma'"),
              std::string::npos)
        << e.what();
  }
}

TEST(PsnrHvsFeature, RefusesWhatLibvmafRefusesOrCannotScore) {
  for (int bits : {13, 14, 16}) {
    const std::string e = refusal(VideoFormat{64, 48, ChromaFormat::k420, bits});
    EXPECT_NE(e.find(fmt::format("psnr_hvs cannot score {}-bit input", bits)), std::string::npos)
        << e;
  }
  for (int bits : {8, 9, 10, 11, 12})
    EXPECT_EQ(refusal(VideoFormat{64, 48, ChromaFormat::k444, bits}), "") << bits;
  EXPECT_NE(refusal(VideoFormat{64, 48, ChromaFormat::kMono, 8}).find("psnr_hvs needs chroma"),
            std::string::npos);
  // 8x8 4:2:0: 4x4 chroma, no block fits.
  const std::string small = refusal(VideoFormat{8, 8, ChromaFormat::k420, 8});
  EXPECT_NE(small.find("psnr_hvs cannot score 8x8 420 pictures: their Cb plane is 4x4 samples"),
            std::string::npos)
      << small;
  EXPECT_NE(refusal(VideoFormat{7, 100, ChromaFormat::k444, 8}).find("Y plane is 7x100"),
            std::string::npos);
  EXPECT_NE(refusal(VideoFormat{100, 14, ChromaFormat::k420, 10}).find("Cb plane is 50x7"),
            std::string::npos);
  EXPECT_NE(refusal(VideoFormat{14, 100, ChromaFormat::k422, 12}).find("Cb plane is 7x100"),
            std::string::npos);
  // The smallest pictures with a block in every plane (chroma of odd sizes is ceil(W/2)).
  for (const VideoFormat& f :
       {VideoFormat{8, 8, ChromaFormat::k444, 8}, VideoFormat{16, 16, ChromaFormat::k420, 8},
        VideoFormat{15, 15, ChromaFormat::k420, 10}, VideoFormat{15, 8, ChromaFormat::k422, 12}})
    EXPECT_EQ(refusal(f), "") << f.describe();
}

// The device's factory decides: a kind with no psnr_hvs engine (CUDA and OpenCL
// have one: device_test.cpp) is refused, naming the feature and the device.
TEST(PsnrHvsFeature, DevicesWithoutTheEngineAreRefused) {
  struct Fake final : Device {
    std::string description() const override { return "a test device"; }
    DeviceKind kind() const override { return DeviceKind::kOther; }
  };
  FeatureContext ctx{VideoFormat{64, 48, ChromaFormat::k420, 8}, nullptr, std::make_shared<Fake>()};
  try {
    make_feature(parse_feature_spec("psnr_hvs"), ctx);
    ADD_FAILURE() << "no DeviceError";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("feature psnr_hvs is not available on a test device"),
              std::string::npos)
        << e.what();
  }
}

// Frames in batches through the engine, with one thread and with two, give the
// reference's bits; the combined value is 0.8 Y + 0.1 (Cb + Cr) before decibels.
TEST(PsnrHvsFeature, EngineEqualsReferenceForAnyThreads) {
  std::mt19937 rng(7);
  ThreadPool pool(2);
  const VideoFormat formats[] = {{37, 29, ChromaFormat::k420, 8},
                                 {64, 17, ChromaFormat::k422, 10},
                                 {23, 40, ChromaFormat::k444, 12},
                                 {50, 50, ChromaFormat::k420, 9}};
  for (const VideoFormat& f : formats) {
    std::vector<Picture> refs, dists;
    for (int i = 0; i < 5; ++i) {
      refs.push_back(random_picture(f, rng));
      dists.push_back(random_picture(f, rng, i % 2 ? &refs.back() : nullptr));
    }
    std::vector<FramePair> pairs;
    for (size_t i = 0; i < refs.size(); ++i) pairs.push_back({&refs[i], &dists[i], int64_t(i)});
    std::vector<double> want(pairs.size() * 4);
    for (size_t i = 0; i < pairs.size(); ++i) {
      double s[3];
      for (int p = 0; p < 3; ++p) {
        const float sum =
            psnr_hvs::plane_error_sum_reference(refs[i].plane(p), dists[i].plane(p), p);
        s[p] = psnr_hvs::plane_score(sum, f.plane_width(p), f.plane_height(p), f.bitdepth);
        want[i * 4 + size_t(p)] = psnr_hvs::decibels(s[p]);
      }
      want[i * 4 + 3] = psnr_hvs::decibels(s[0] * .8 + .1 * (s[1] + s[2]));
    }
    for (ThreadPool* threads : {static_cast<ThreadPool*>(nullptr), &pool}) {
      const auto feature = psnr_hvs_feature(f, threads);
      std::vector<double> got(want.size());
      feature->extract_batch(pairs, got);
      for (size_t k = 0; k < want.size(); ++k)
        EXPECT_TRUE(same_bits(got[k], want[k])) << f.describe() << " value " << k;
      std::vector<double> one(4);
      feature->extract(refs[3], dists[3], one);
      for (size_t k = 0; k < 4; ++k) EXPECT_TRUE(same_bits(one[k], want[12 + k]));
    }
  }
}

TEST(PsnrHvsFeature, IdenticalPicturesScoreInfinity) {
  const VideoFormat f{32, 32, ChromaFormat::k420, 8};
  std::mt19937 rng(3);
  const Picture a = random_picture(f, rng);
  std::vector<double> out(4);
  psnr_hvs_feature(f)->extract(a, a, out);
  for (double v : out) EXPECT_EQ(v, std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace exactvq
