// The scalar reference's stages: decimating in place (float_ssim's way) gives
// the bits of decimating into a new buffer for every factor and many sizes, so
// a twin may write a decimated row at once; the window's passes and the
// low-pass table as the spec states them.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "backends/device.h"
#include "core/error.h"
#include "core/thread_pool.h"
#include "metrics/float_ssim/float_ssim_feature.h"
#include "metrics/float_ssim/reference.h"
#include "metrics/vif/vif_clips.h"

namespace exactvq::float_ssim {
namespace {

namespace fs = std::filesystem;

TEST(FloatSsimReference, InPlaceDecimationEqualsANewBuffer) {
  std::mt19937 rng(7);
  int checked = 0;
  for (int factor = 2; factor <= kMaxScale; ++factor)
    for (int w = 1; w <= 41; ++w)
      for (int h = 1; h <= 23; h += 2) {
        if (!decimation_fits(w, factor, factor) || !decimation_fits(h, factor, factor)) continue;
        std::vector<float> img(size_t(w) * size_t(h));
        for (float& v : img) v = float(rng() % 65536) / 256.0f;
        const std::vector<float> taps(size_t(factor) * size_t(factor),
                                      1.0f / float(factor * factor));
        const DecimationKernel box{factor, taps};
        const int sw = decimated_size(w, factor), sh = decimated_size(h, factor);
        std::vector<float> fresh(size_t(sw) * size_t(sh)), in_place = img;
        for (int y = 0; y < sh; ++y) {
          kReferenceStages.decimate_row(img.data(), w, h, y, factor, box, sw,
                                        fresh.data() + size_t(y) * size_t(sw));
          kReferenceStages.decimate_row(in_place.data(), w, h, y, factor, box, sw,
                                        in_place.data() + size_t(y) * size_t(sw));
        }
        in_place.resize(fresh.size());
        // (memcmp of no bytes would still need non-null pointers.)
        ASSERT_TRUE(fresh.empty() ||
                    std::memcmp(fresh.data(), in_place.data(), fresh.size() * sizeof(float)) == 0)
            << w << "x" << h << " factor " << factor;
        ++checked;
      }
  EXPECT_GT(checked, 1000);
}

TEST(FloatSsimReference, TablesAsTheSpecStatesThem) {
  EXPECT_EQ(kWindowTaps[0], 0.001028f);
  EXPECT_EQ(kWindowTaps[5], 0.266012f);
  EXPECT_EQ(kWindowTaps[10], 0.001028f);
  const LowPassTable& t = low_pass_table();
  EXPECT_EQ(t[4][4], 0.363505f);
  EXPECT_EQ(t[0][0], 0.000714f);
  EXPECT_EQ(t[8][8], 0.000714f);
  EXPECT_EQ(t[0][4], 0.016114f);
  EXPECT_EQ(t[4][0], 0.016114f);
  EXPECT_EQ(t[2][3], -0.020867f);
  EXPECT_EQ(t[3][6], -0.020867f);
  EXPECT_EQ(t[1][7], 0.000283f);
  for (int i = 0; i < kLowPass; ++i)
    for (int j = 0; j < kLowPass; ++j) {
      EXPECT_EQ(t[size_t(i)][size_t(j)], t[size_t(j)][size_t(i)]);
      EXPECT_EQ(t[size_t(i)][size_t(j)], t[size_t(8 - i)][size_t(j)]);
    }
}

TEST(FloatSsimReference, HighDepthSamplesScaleExactly) {
  Picture p;
  p.allocate(VideoFormat{3, 1, ChromaFormat::k444, 16});
  auto* s = reinterpret_cast<uint16_t*>(p.plane_data(0));
  s[0] = 65535;
  s[1] = 1;
  s[2] = 32768;
  const FloatPlane f = load_plane(p.plane(0), 16);
  EXPECT_EQ(f.samples[0], 65535.0f / 256.0f);
  EXPECT_EQ(f.samples[1], 1.0f / 256.0f);
  EXPECT_EQ(f.samples[2], 128.0f);
}

// A device without a float_ssim engine (OpenCL for now) is refused, naming it;
// the CPU device given explicitly scores.
TEST(FloatSsimFeature, DevicesWithoutTheEngineAreRefused) {
  struct NoEngines final : Device {
    std::string description() const override { return "a device without engines"; }
  };
  FeatureContext ctx;
  ctx.format = VideoFormat{200, 200, ChromaFormat::k420, 8};
  ctx.device = std::make_shared<NoEngines>();
  try {
    make_float_ssim_feature(SsimOptions{}, ctx);
    ADD_FAILURE() << "no DeviceError";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("float_ssim is not available on a device without engines"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(make_float_ms_ssim_feature(MsSsimOptions{}, ctx), DeviceError);
  ctx.device = std::shared_ptr<Device>(&cpu_device(), [](Device*) {});
  EXPECT_NO_THROW(make_float_ssim_feature(SsimOptions{}, ctx));
  EXPECT_NO_THROW(make_float_ms_ssim_feature(MsSsimOptions{}, ctx));
}

// A batch on a pool: each frame's row is the reference's values in output_names order.
TEST(FloatSsimFeature, BatchRowsAreTheReferencesValues) {
  const vif_testing::Clip c = vif_testing::write_clip(
      fs::path(EXACTVQ_TEST_TMP) / "float_ssim_feature", 181, 177, 10, 3, 99);
  ThreadPool pool(3);
  FeatureContext ctx;
  ctx.format = c.format;
  ctx.pool = &pool;
  SsimOptions so;
  so.enable_lcs = true;
  so.enable_db = true;
  MsSsimOptions mo;
  mo.enable_lcs = true;
  const auto ssim = make_float_ssim_feature(so, ctx);
  const auto ms = make_float_ms_ssim_feature(mo, ctx);
  std::vector<FramePair> pairs;
  for (size_t i = 0; i < c.ref_pics.size(); ++i)
    pairs.push_back({&c.ref_pics[i], &c.dist_pics[i], int64_t(i)});
  std::vector<double> a(pairs.size() * 4), b(pairs.size() * 16);
  ssim->extract_batch(pairs, a);
  ms->extract_batch(pairs, b);
  for (size_t i = 0; i < pairs.size(); ++i) {
    const SsimScores s =
        float_ssim_reference(c.ref_pics[i].plane(0), c.dist_pics[i].plane(0), 10, so);
    EXPECT_EQ(a[i * 4 + 0], s.ssim);
    EXPECT_EQ(a[i * 4 + 1], s.l);
    EXPECT_EQ(a[i * 4 + 2], s.c);
    EXPECT_EQ(a[i * 4 + 3], s.s);
    const MsSsimScores m =
        float_ms_ssim_reference(c.ref_pics[i].plane(0), c.dist_pics[i].plane(0), 10, mo);
    EXPECT_EQ(b[i * 16 + 0], m.ms_ssim);
    for (size_t k = 0; k < 5; ++k) {
      EXPECT_EQ(b[i * 16 + 1 + k], m.l[k]);
      EXPECT_EQ(b[i * 16 + 6 + k], m.c[k]);
      EXPECT_EQ(b[i * 16 + 11 + k], m.s[k]);
    }
  }
}

}  // namespace
}  // namespace exactvq::float_ssim
