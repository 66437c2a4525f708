// speed_chroma and speed_temporal through the library: option names, ranges and
// libvmaf's output keys; refusals that name the feature and the size; and
// speed_temporal started inside a video (start_at, as an exactvq-mpi rank) or
// fed in batches of any size on any thread count giving one whole pass's bits.
#include <gtest/gtest.h>

#include <cstring>

#include "core/error.h"
#include "core/thread_pool.h"
#include "metrics/registry.h"
#include "metrics/speed/options.h"
#include "metrics/speed/reference.h"
#include "metrics/speed/speed_clips.h"

namespace exactvq::speed {
namespace {

SpeedOptions parse(Feature f, const std::string& text) {
  return parse_speed_options(f, parse_feature_spec(text));
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(SpeedOptions, NamesCarryTheOptionsAsLibvmafDoes) {
  EXPECT_EQ(key_suffix(parse(Feature::kChroma, "speed_chroma")), "");
  EXPECT_EQ(key_suffix(parse(Feature::kChroma,
                             "speed_chroma=speed_weight_var_mode=5:speed_sigma_nn=0.19:"
                             "speed_nn_floor=0.1:speed_max_val=45")),
            "_mxv_45_nnf_0.1_snn_0.19_wvm_5");
  EXPECT_EQ(key_suffix(parse(Feature::kChroma,
                             "speed_chroma=speed_prescale_method=bicubic:speed_prescale=0.8:"
                             "speed_kernelscale=2")),
            "_ks_2_ps_0.8_psm_bicubic");
  // The default method and defaults given explicitly add nothing.
  EXPECT_EQ(key_suffix(parse(Feature::kChroma,
                             "speed_chroma=speed_prescale_method=nearest:speed_sigma_nn=0.29")),
            "");
  EXPECT_EQ(key_suffix(parse(Feature::kTemporal, "speed_temporal=speed_use_ref_diff=true")),
            "_urd");
  EXPECT_EQ(key_suffix(parse(Feature::kTemporal,
                             "speed_temporal=speed_kernelscale=3.7113402:speed_nn_floor=0.3")),
            "_ks_3.71134_nnf_0.3");
  // Aliases are taken too.
  EXPECT_EQ(key_suffix(parse(Feature::kChroma, "speed_chroma=mxv=45:wvm=5")), "_mxv_45_wvm_5");
}

TEST(SpeedOptions, BadOptionsAreRefusedByName) {
  const auto refused = [](Feature f, const std::string& text, const std::string& needle) {
    const std::string e = error_of([&] { parse(f, text); });
    EXPECT_NE(e.find(needle), std::string::npos) << text << ": " << e;
    EXPECT_NE(e.find(feature_name(f)), std::string::npos) << text << ": " << e;
  };
  refused(Feature::kChroma, "speed_chroma=speed_kernelscale=1.2", "kernel scales");
  refused(Feature::kChroma, "speed_chroma=speed_kernelscale=5", "out of range");
  refused(Feature::kChroma, "speed_chroma=speed_prescale=0.05", "out of range");
  refused(Feature::kChroma, "speed_chroma=speed_prescale_method=area",
          "speed_prescale_method=area");
  refused(Feature::kChroma, "speed_chroma=speed_sigma_nn=3", "out of range");
  refused(Feature::kChroma, "speed_chroma=speed_nn_floor=x", "not a number");
  refused(Feature::kChroma, "speed_chroma=speed_max_val=1001", "out of range");
  refused(Feature::kChroma, "speed_chroma=speed_weight_var_mode=7", "out of range");
  refused(Feature::kChroma, "speed_chroma=speed_weight_var_mode=1.5", "not an integer");
  refused(Feature::kChroma, "speed_chroma=speed_use_ref_diff=true", "unknown option");
  refused(Feature::kTemporal, "speed_temporal=speed_weight_var_mode=1", "unknown option");
  refused(Feature::kTemporal, "speed_temporal=speed_use_ref_diff=maybe", "not a boolean");
}

struct Clip {
  VideoFormat format;
  std::vector<Picture> ref, dist;
  std::vector<FramePair> pairs;
};

Clip make_clip(const VideoFormat& f, int frames, uint32_t seed) {
  Clip c;
  c.format = f;
  for (const auto& fr : testing::random_frames(f, frames, seed))
    c.ref.push_back(clitest::to_picture(f, fr));
  for (const auto& fr : testing::random_frames(f, frames, seed + 1, true))
    c.dist.push_back(clitest::to_picture(f, fr));
  for (int i = 0; i < frames; ++i)
    c.pairs.push_back({&c.ref[size_t(i)], &c.dist[size_t(i)], int64_t(i)});
  return c;
}

std::unique_ptr<exactvq::Feature> make(const std::string& spec, const VideoFormat& f,
                                       ThreadPool* pool = nullptr) {
  FeatureContext ctx;
  ctx.format = f;
  ctx.pool = pool;
  return make_feature(parse_feature_spec(spec), ctx);
}

// Every value of `feature` over the clip's frames from `first`, `batch` frames a call.
std::vector<double> scores(exactvq::Feature& feature, const Clip& c, int first, int batch) {
  const size_t n = feature.outputs().size();
  std::vector<double> out((c.pairs.size() - size_t(first)) * n);
  for (size_t i = size_t(first); i < c.pairs.size(); i += size_t(batch)) {
    const size_t k = std::min(size_t(batch), c.pairs.size() - i);
    feature.extract_batch(std::span(c.pairs).subspan(i, k),
                          std::span(out).subspan((i - size_t(first)) * n, k * n));
  }
  return out;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST(SpeedTemporal, AnySplitOfTheRunGivesOnePassBits) {
  const Clip c = make_clip(clitest::make_format(176, 160, ChromaFormat::k420, 10), 7, 11);
  for (const char* spec : {"speed_temporal", "speed_temporal=speed_use_ref_diff=true"}) {
    SCOPED_TRACE(spec);
    auto whole_feature = make(spec, c.format);
    const std::vector<double> whole = scores(*whole_feature, c, 0, 1);
    ASSERT_EQ(whole.size(), 7u);
    EXPECT_EQ(whole[0], 0.0);
    for (size_t i = 1; i < whole.size(); ++i) EXPECT_GT(whole[i], 0.0) << i;
    // Batches of several frames on several threads.
    ThreadPool pool(3);
    for (int batch : {2, 3, 7}) {
      auto f = make(spec, c.format, &pool);
      EXPECT_TRUE(same_bits(scores(*f, c, 0, batch), whole)) << "batch " << batch;
    }
    // Started inside the video, handed the frame before: the whole run's values.
    for (int first : {1, 3, 6}) {
      auto f = make(spec, c.format, &pool);
      f->start_at(std::span(c.pairs).subspan(size_t(first) - 1, 1), first);
      const std::vector<double> part = scores(*f, c, first, 2);
      EXPECT_TRUE(same_bits(part, std::vector<double>(whole.begin() + first, whole.end())))
          << "from frame " << first;
    }
    // Frames out of order are refused.
    auto f = make(spec, c.format);
    const std::string e = error_of([&] { scores(*f, c, 1, 1); });
    EXPECT_NE(e.find("every frame in order"), std::string::npos) << e;
  }
}

TEST(SpeedChroma, AnyBatchingGivesOneFrameAtATimeBits) {
  const Clip c = make_clip(clitest::make_format(200, 170, ChromaFormat::k420, 8), 4, 5);
  auto one = make("speed_chroma", c.format);
  const std::vector<double> single = scores(*one, c, 0, 1);
  ThreadPool pool(4);
  auto many = make("speed_chroma", c.format, &pool);
  EXPECT_TRUE(same_bits(scores(*many, c, 0, 4), single));
}

TEST(SpeedRefusals, TooSmallPicturesNameTheFeatureAndSize) {
  // 4:2:0 chroma of 158x160 is 79x80: 4x5 at 1/16, no 5x5 block.
  const std::string e =
      error_of([] { make("speed_chroma", clitest::make_format(158, 160, ChromaFormat::k420)); });
  EXPECT_NE(e.find("speed_chroma"), std::string::npos) << e;
  EXPECT_NE(e.find("79x80"), std::string::npos) << e;
  EXPECT_NE(e.find("too small"), std::string::npos) << e;
  EXPECT_NO_THROW(make("speed_chroma", clitest::make_format(160, 160, ChromaFormat::k420)));
  // A prescale can make a picture big enough, or too small.
  EXPECT_NO_THROW(
      make("speed_chroma=speed_prescale=2", clitest::make_format(80, 80, ChromaFormat::k444)));
  EXPECT_THROW(
      make("speed_chroma=speed_prescale=0.5", clitest::make_format(100, 100, ChromaFormat::k444)),
      PictureError);
  EXPECT_THROW(make("speed_chroma", clitest::make_format(200, 200, ChromaFormat::kMono)),
               PictureError);
  const std::string nine =
      error_of([] { make("speed_chroma", clitest::make_format(200, 200, ChromaFormat::k444, 9)); });
  EXPECT_NE(nine.find("9-bit"), std::string::npos) << nine;

  // speed_temporal's first frame is 0 without a score (libvmaf's too): a 1x1
  // clip of one frame has its value; a second frame is refused.
  const Clip tiny = make_clip(clitest::make_format(1, 1, ChromaFormat::k420), 2, 3);
  auto t = make("speed_temporal", tiny.format);
  std::vector<double> out(1);
  t->extract_batch(std::span(tiny.pairs).subspan(0, 1), out);
  EXPECT_EQ(out[0], 0.0);
  const std::string te =
      error_of([&] { t->extract_batch(std::span(tiny.pairs).subspan(1, 1), out); });
  EXPECT_NE(te.find("speed_temporal"), std::string::npos) << te;
  EXPECT_NE(te.find("1x1"), std::string::npos) << te;
  EXPECT_THROW(
      {
        const Clip c = make_clip(clitest::make_format(96, 96, ChromaFormat::k444), 2, 4);
        auto f = make("speed_temporal=speed_prescale=1.5", c.format);
        scores(*f, c, 0, 2);
      },
      PictureError);
}

TEST(SpeedReference, DimensionsFollowLibvmaf) {
  const Dimensions d = dimensions_of(1920, 1080, 1.0);
  EXPECT_EQ(d.operating_width, 120);
  EXPECT_EQ(d.operating_height, 67);
  EXPECT_EQ(d.truncated_height, 65);
  EXPECT_EQ(d.blocks, 24 * 13);
  EXPECT_EQ(d.submatrix_width, 116);
  const Dimensions s = dimensions_of(333, 177, 1.5);
  EXPECT_EQ(s.scaled_width, 500);
  EXPECT_EQ(s.scaled_height, 266);
}

}  // namespace
}  // namespace exactvq::speed
