// float_ssim / float_ms_ssim options (libvmaf's names, defaults, ranges), output
// names, the decibel formulas, scale selection, and the refusals: bad option
// values, sizes and bit depths libvmaf gives no value for, other devices.
#include "metrics/float_ssim/options.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "metrics/float_ssim/float_ssim_feature.h"
#include "metrics/float_ssim/reference.h"
#include "metrics/registry.h"

namespace exactvq::float_ssim {
namespace {

SsimOptions ssim(const std::string& s) { return parse_ssim_options(parse_feature_spec(s)); }
MsSsimOptions ms(const std::string& s) { return parse_ms_ssim_options(parse_feature_spec(s)); }

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(FloatSsimOptions, DefaultsAndNames) {
  const SsimOptions d = ssim("float_ssim");
  EXPECT_FALSE(d.enable_lcs);
  EXPECT_FALSE(d.enable_db);
  EXPECT_FALSE(d.clip_db);
  EXPECT_EQ(d.scale, 0);
  const SsimOptions ctc = ssim("float_ssim=scale=1:enable_db=true:clip_db=true");
  EXPECT_EQ(ctc.scale, 1);
  EXPECT_TRUE(ctc.enable_db);
  EXPECT_TRUE(ctc.clip_db);
  EXPECT_EQ(ssim("float_ssim=scale=10").scale, 10);
  EXPECT_TRUE(ssim("float_ssim=enable_lcs=true").enable_lcs);
  const MsSsimOptions m = ms("float_ms_ssim=enable_lcs=true:enable_db=1:clip_db=true");
  EXPECT_TRUE(m.enable_lcs);
  EXPECT_TRUE(m.enable_db);
  EXPECT_TRUE(m.clip_db);
  EXPECT_EQ(d.fp64, ssim::Fp64Mode::kAuto);
  EXPECT_EQ(ssim("float_ssim=fp64=native").fp64, ssim::Fp64Mode::kNative);
  EXPECT_EQ(ms("float_ms_ssim=fp64=emulate").fp64, ssim::Fp64Mode::kEmulate);
}

TEST(FloatSsimOptions, OutputNamesAsLibvmafWritesThem) {
  // No option adds a suffix (libvmaf flags none as a feature parameter).
  EXPECT_EQ(output_names(ssim("float_ssim=scale=1:enable_db=true:clip_db=true")),
            std::vector<std::string>{"float_ssim"});
  EXPECT_EQ(
      output_names(ssim("float_ssim=enable_lcs=true:scale=3")),
      (std::vector<std::string>{"float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s"}));
  EXPECT_EQ(output_names(ms("float_ms_ssim")), std::vector<std::string>{"float_ms_ssim"});
  const std::vector<std::string> lcs = output_names(ms("float_ms_ssim=enable_lcs=true"));
  ASSERT_EQ(lcs.size(), 16u);
  EXPECT_EQ(lcs[1], "float_ms_ssim_l_scale0");
  EXPECT_EQ(lcs[5], "float_ms_ssim_l_scale4");
  EXPECT_EQ(lcs[6], "float_ms_ssim_c_scale0");
  EXPECT_EQ(lcs[15], "float_ms_ssim_s_scale4");
}

TEST(FloatSsimOptions, BadValuesAndKeysAreRefused) {
  for (const char* bad : {"float_ssim=scale=11", "float_ssim=scale=-1", "float_ssim=scale=1.5",
                          "float_ssim=scale=", "float_ssim=scale=x", "float_ssim=enable_db=maybe",
                          "float_ssim=clip_db=2", "float_ssim=enable_lcs=", "float_ssim=speed=1",
                          "float_ssim=fp64=soft"})
    EXPECT_THROW(ssim(bad), UsageError) << bad;
  for (const char* bad : {"float_ms_ssim=scale=1", "float_ms_ssim=enable_db=x",
                          "float_ms_ssim=foo=1", "float_ms_ssim=fp64="})
    EXPECT_THROW(ms(bad), UsageError) << bad;
  const std::string m = message_of([] { ssim("float_ssim=scale=11"); });
  EXPECT_NE(m.find("scale=11"), std::string::npos) << m;
  EXPECT_NE(m.find("[0, 10]"), std::string::npos) << m;
  const std::string u = message_of([] { ms("float_ms_ssim=scale=2"); });
  EXPECT_NE(u.find("unknown option 'scale'"), std::string::npos) << u;
}

TEST(FloatSsimScale, AutomaticScaleRoundsMinSideOver256) {
  EXPECT_EQ(ssim_scale(576, 324, 0), 1);
  EXPECT_EQ(ssim_scale(383, 1000, 0), 1);  // 1.496
  EXPECT_EQ(ssim_scale(384, 384, 0), 2);   // 1.5 rounds up
  EXPECT_EQ(ssim_scale(1920, 1080, 0), 4);
  EXPECT_EQ(ssim_scale(3840, 2160, 0), 8);
  EXPECT_EQ(ssim_scale(1, 1, 0), 1);
  EXPECT_EQ(ssim_scale(1920, 1080, 1), 1);
  EXPECT_EQ(ssim_scale(100, 100, 7), 7);
}

TEST(FloatSsimDb, FormulasAndLibvmafsComparison) {
  // ceil(10 log10(255^2 * 2 * 576 * 324)) = 104; 8x8 gives 10 log10(65025 * 128) = 69.2 -> 70.
  EXPECT_EQ(max_db(576, 324, 8, true), 104.0);
  EXPECT_EQ(max_db(8, 8, 8, true), 70.0);
  EXPECT_TRUE(std::isinf(max_db(8, 8, 8, false)));
  EXPECT_EQ(to_db(1.0, 104.0), 104.0);           // -10 log10(0) = +inf, clipped
  EXPECT_TRUE(std::signbit(to_db(0.0, 104.0)));  // -10 * log10(1) = -0
  EXPECT_EQ(to_db(std::nan(""), 74.0), 74.0);    // NaN < max is false: the ceiling
  EXPECT_TRUE(
      std::isinf(to_db(std::nan(""), max_db(8, 8, 8, false))));  // and without clip_db: +inf
}

TEST(FloatSsimRefusals, SizesAndBitDepthsWithoutAValue) {
  // MS-SSIM: libvmaf refuses a side under 176 (176 halves, rounding down, to 11).
  EXPECT_NO_THROW(check_ms_ssim_input(176, 176, 8, "t"));
  EXPECT_THROW(check_ms_ssim_input(175, 400, 8, "t"), PictureError);
  EXPECT_THROW(check_ms_ssim_input(400, 175, 8, "t"), PictureError);
  const std::string m =
      message_of([] { check_ms_ssim_input(175, 400, 10, "feature float_ms_ssim"); });
  EXPECT_NE(m.find("175x400"), std::string::npos) << m;
  EXPECT_NE(m.find("176"), std::string::npos) << m;
  EXPECT_NE(m.find("feature float_ms_ssim"), std::string::npos) << m;
  // Bit depths libvmaf does not convert to float (it reads their samples as bytes).
  for (int depth : {9, 11, 13, 14, 15}) {
    EXPECT_THROW(check_ssim_input(64, 64, depth, {}, "t"), PictureError) << depth;
    EXPECT_THROW(check_ms_ssim_input(200, 200, depth, "t"), PictureError) << depth;
  }
  for (int depth : {8, 10, 12, 16})
    EXPECT_NO_THROW(check_ssim_input(64, 64, depth, {}, "t")) << depth;
  // An explicit scale whose box filter would read outside the picture.
  SsimOptions big;
  big.scale = 10;
  EXPECT_THROW(check_ssim_input(3, 100, 8, big, "t"), PictureError);
  EXPECT_NO_THROW(check_ssim_input(100, 100, 8, big, "t"));
  const std::string s = message_of([&] { check_ssim_input(3, 100, 8, big, "feature float_ssim"); });
  EXPECT_NE(s.find("scale=10"), std::string::npos) << s;
  EXPECT_NE(s.find("3x100"), std::string::npos) << s;
  // Small pictures float_ssim does score: no window fits, libvmaf's 0 / (w-10)(h-10).
  EXPECT_NO_THROW(check_ssim_input(1, 1, 8, {}, "t"));
}

TEST(FloatSsimRefusals, FeaturesRefuseThroughTheRegistry) {
  FeatureContext ctx;
  ctx.format = VideoFormat{100, 100, ChromaFormat::k420, 8};
  EXPECT_NO_THROW(make_feature(parse_feature_spec("float_ssim"), ctx));
  const std::string m = message_of([&] { make_feature(parse_feature_spec("float_ms_ssim"), ctx); });
  EXPECT_NE(m.find("100x100"), std::string::npos) << m;
  EXPECT_THROW(make_feature(parse_feature_spec("float_ms_ssim"), ctx), PictureError);
  ctx.format = VideoFormat{200, 200, ChromaFormat::k420, 9};
  EXPECT_THROW(make_feature(parse_feature_spec("float_ssim"), ctx), PictureError);
  EXPECT_THROW(make_feature(parse_feature_spec("float_ms_ssim"), ctx), PictureError);
  ctx.format.bitdepth = 16;
  EXPECT_EQ(
      make_feature(parse_feature_spec("float_ms_ssim=enable_lcs=true"), ctx)->outputs().size(),
      16u);
  EXPECT_THROW(make_feature(parse_feature_spec("float_ssim=scale=11"), ctx), UsageError);
}

TEST(FloatSsimReference, TinyPicturesScoreLibvmafsEmptyMeans) {
  // A side under 11: no window fits; 0.0 / ((w-10)(h-10)): +0, -0, and NaN where a side is 10.
  const auto score = [](int w, int h) {
    Picture r, d;
    const VideoFormat f{w, h, ChromaFormat::k444, 8};
    r.allocate(f);
    d.allocate(f);
    return float_ssim_reference(r.plane(0), d.plane(0), 8, {}).ssim;
  };
  EXPECT_FALSE(std::signbit(score(8, 8)));
  EXPECT_EQ(score(8, 8), 0.0);
  EXPECT_TRUE(std::signbit(score(17, 9)));
  EXPECT_EQ(score(17, 9), 0.0);
  EXPECT_TRUE(std::isnan(score(18, 10)));
  // Identical flat pictures of full windows score 1.
  EXPECT_EQ(score(11, 11), 1.0);
  // The NaN in decibels: min(NaN, max_db) is max_db, +inf without clip_db (libvmaf's CSV prints
  // inf).
  Picture r, d;
  r.allocate(VideoFormat{18, 10, ChromaFormat::k444, 8});
  d.allocate(r.format);
  SsimOptions db;
  db.enable_db = true;
  const double unclipped = float_ssim_reference(r.plane(0), d.plane(0), 8, db).ssim;
  EXPECT_TRUE(std::isinf(unclipped) && unclipped > 0) << unclipped;
  db.clip_db = true;
  db.scale = 1;
  EXPECT_EQ(float_ssim_reference(r.plane(0), d.plane(0), 8, db).ssim, 74.0);
}

}  // namespace
}  // namespace exactvq::float_ssim
