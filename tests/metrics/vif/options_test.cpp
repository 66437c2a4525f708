// vif's options: libvmaf's names, aliases, ranges and output-name suffixes.
#include "metrics/vif/options.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "core/error.h"
#include "metrics/vif/vif_feature.h"

namespace exactvq::vif {
namespace {

VifOptions parse(const std::string& s) { return parse_vif_options(parse_feature_spec(s)); }

TEST(VifOptions, DefaultsNamesAndAliases) {
  const VifOptions d = parse("vif");
  EXPECT_FALSE(d.debug);
  EXPECT_EQ(d.gain_limit, 100.0);
  EXPECT_FALSE(d.skip_scale0);
  EXPECT_EQ(parse("vif=vif_enhn_gain_limit=1").gain_limit, 1.0);
  EXPECT_EQ(parse("vif=egl=2.5").gain_limit, 2.5);
  EXPECT_TRUE(parse("vif=vif_skip_scale0=true").skip_scale0);
  EXPECT_TRUE(parse("vif=ssclz=1").skip_scale0);
  EXPECT_TRUE(parse("vif=debug=true").debug);
}

TEST(VifOptions, SuffixesAsLibvmafNamesThem) {
  EXPECT_EQ(key_suffix(parse("vif")), "");
  EXPECT_EQ(key_suffix(parse("vif=debug=true")), "");
  EXPECT_EQ(key_suffix(parse("vif=egl=1")), "_egl_1");
  EXPECT_EQ(key_suffix(parse("vif=egl=100")), "");
  EXPECT_EQ(key_suffix(parse("vif=egl=1.25")), "_egl_1.25");
  EXPECT_EQ(key_suffix(parse("vif=ssclz=true:egl=3")), "_egl_3_ssclz");
  EXPECT_EQ(key_suffix(parse("vif=vif_skip_scale0=true")), "_ssclz");
}

TEST(VifOptions, OutputNamesInLibvmafOrder) {
  EXPECT_EQ(output_names(parse("vif=egl=1")),
            (std::vector<std::string>{"integer_vif_scale0_egl_1", "integer_vif_scale1_egl_1",
                                      "integer_vif_scale2_egl_1", "integer_vif_scale3_egl_1"}));
  const std::vector<std::string> debug = output_names(parse("vif=debug=true"));
  ASSERT_EQ(debug.size(), 15u);
  EXPECT_EQ(debug[4], "integer_vif");
  EXPECT_EQ(debug[5], "integer_vif_num");
  EXPECT_EQ(debug[6], "integer_vif_den");
  EXPECT_EQ(debug[7], "integer_vif_num_scale0");
  EXPECT_EQ(debug[14], "integer_vif_den_scale3");
}

// fp64 is exactvq's own (how a CUDA device runs the gain steps): no suffix, no
// name, no value changes; the CPU takes it and ignores it.
TEST(VifOptions, Fp64ModeChangesNoNameOrValue) {
  EXPECT_EQ(parse("vif").fp64, Fp64Mode::kAuto);
  EXPECT_EQ(parse("vif=fp64=auto").fp64, Fp64Mode::kAuto);
  EXPECT_EQ(parse("vif=fp64=native").fp64, Fp64Mode::kNative);
  EXPECT_EQ(parse("vif=egl=1:fp64=emulate").fp64, Fp64Mode::kEmulate);
  EXPECT_EQ(key_suffix(parse("vif=egl=1:fp64=emulate")), "_egl_1");
  EXPECT_EQ(output_names(parse("vif=debug=true:fp64=emulate")),
            output_names(parse("vif=debug=true")));
  for (const char* bad : {"vif=fp64=soft", "vif=fp64=", "vif=fp64=Emulate"}) {
    try {
      parse(bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("feature vif: fp64="), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("auto, native or emulate"), std::string::npos)
          << e.what();
    }
  }
  const VideoFormat f{40, 24, ChromaFormat::kMono, 10};
  std::mt19937 rng(5);
  std::vector<Picture> pictures(4);
  for (Picture& p : pictures) {
    p.allocate(f);
    auto* samples = reinterpret_cast<uint16_t*>(p.plane_data(0));
    for (int i = 0; i < f.width * f.height; ++i) samples[i] = uint16_t(rng() % 1024);
  }
  const std::vector<FramePair> pairs = {{&pictures[0], &pictures[1], 0},
                                        {&pictures[2], &pictures[3], 1}};
  std::vector<double> values[2];
  for (int k = 0; k < 2; ++k) {
    FeatureContext ctx;
    ctx.format = f;
    auto feature =
        make_vif_feature(parse(k == 0 ? "vif=debug=true" : "vif=debug=true:fp64=emulate"), ctx);
    values[k].resize(pairs.size() * feature->outputs().size());
    feature->extract_batch(pairs, values[k]);
  }
  EXPECT_EQ(std::memcmp(values[0].data(), values[1].data(), values[0].size() * sizeof(double)), 0);
}

TEST(VifOptions, BadValuesAndKeysAreRefused) {
  for (const char* bad :
       {"vif=egl=0.5", "vif=egl=100.5", "vif=egl=x", "vif=egl=", "vif=egl=nan",
        "vif=vif_enhn_gain_limit=inf", "vif=debug=maybe", "vif=ssclz=2", "vif=speed=1"}) {
    EXPECT_THROW(parse(bad), UsageError) << bad;
  }
  try {
    parse("vif=speed=1");
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("vif_enhn_gain_limit"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("speed"), std::string::npos) << e.what();
  }
  try {
    parse("vif=egl=0.5");
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("egl=0.5"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace exactvq::vif
