// cambi's options and keys (libvmaf's names, aliases, ranges and key
// suffixes), and the refusals of its setup, naming the feature and the size.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "backends/device.h"
#include "cambi_testing.h"
#include "core/error.h"
#include "metrics/cambi/cambi_feature.h"
#include "metrics/cambi/setup.h"

namespace exactvq::cambi {
namespace {

CambiOptions parse(const std::string& spec) {
  return parse_cambi_options(parse_feature_spec(spec));
}

std::string error_of(const std::string& spec, int w = 576, int h = 324, int bitdepth = 8) {
  try {
    make_cambi_setup(parse(spec), VideoFormat{w, h, ChromaFormat::k420, bitdepth});
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(CambiOptions, KeysCarryTheOptionsAsLibvmafNamesThem) {
  EXPECT_EQ(output_names(parse("cambi")), std::vector<std::string>{"cambi"});
  EXPECT_EQ(output_names(parse("cambi=full_ref=true")),
            (std::vector<std::string>{"cambi", "cambi_source", "cambi_full_reference"}));
  // The VMAF v1.0.16 models' extractor.
  EXPECT_EQ(output_names(parse("cambi=cambi_vis_lum_threshold=0.06:cambi_max_val=17:"
                               "cambi_high_res_speedup=1080"))[0],
            "cambi_hrs_1080_cmxv_17_vlt_0.06");
  // Sorted by the options' names, aliases shown, defaults left out, only on the first key.
  EXPECT_EQ(output_names(parse("cambi=ws=33:topk=0.3:eotf=pq:cambi_topk=0.6:full_ref=true")),
            (std::vector<std::string>{"cambi_eotf_pq_topk_0.3_ws_33", "cambi_source",
                                      "cambi_full_reference"}));
  EXPECT_EQ(output_names(parse("cambi=enc_width=1280:enc_height=720:enc_bitdepth=8:"
                               "src_width=1920:src_height=1080:tvit=0.05:mlc=3:ceot=pq"))[0],
            "cambi_ceot_pq_encbd_8_ench_720_encw_1280_mlc_3_srch_1080_srcw_1920_tvit_0.05");
  EXPECT_EQ(output_names(parse("cambi=window_size=65:tvi_threshold=0.019"))[0], "cambi");
}

TEST(CambiOptions, PrecedenceOfTheTwoSpellings) {
  EXPECT_EQ(effective_topk(parse("cambi=cambi_topk=0.2")), 0.2);
  EXPECT_EQ(effective_topk(parse("cambi=topk=0.3:cambi_topk=0.2")), 0.3);
  EXPECT_EQ(effective_eotf(parse("cambi=eotf=pq")), Eotf::kPq);
  EXPECT_EQ(effective_eotf(parse("cambi=eotf=pq:cambi_eotf=bt1886")), Eotf::kPq);
  EXPECT_EQ(effective_eotf(parse("cambi=eotf=bt1886:cambi_eotf=pq")), Eotf::kPq);
}

TEST(CambiOptions, BadOptionsAreRefusedNamingThem) {
  const char* const bad[] = {
      "cambi=window=3",          "cambi=window_size=14",  "cambi=window_size=128",
      "cambi=window_size=3x",    "cambi=topk=0",          "cambi=topk=1.5",
      "cambi=tvi_threshold=nan", "cambi=eotf=hlg",        "cambi=cambi_eotf=PQ",
      "cambi=enc_width=179",     "cambi=enc_height=7681", "cambi=enc_bitdepth=5",
      "cambi=src_width=319",     "cambi=src_height=4321", "cambi=max_log_contrast=6",
      "cambi=cambi_max_val=-1",  "cambi=vlt=301",         "cambi=full_ref=maybe",
      "cambi=hrs=2161",          "cambi=heatmaps_path=",
  };
  for (const char* spec : bad) {
    try {
      parse(spec);
      ADD_FAILURE() << spec << " was taken";
    } catch (const UsageError& e) {
      const std::string what = e.what();
      const std::string key = std::string(spec).substr(6, std::string(spec).find('=', 6) - 6);
      EXPECT_NE(what.find("cambi"), std::string::npos) << what;
      EXPECT_NE(what.find(key), std::string::npos) << what;
    }
  }
}

TEST(CambiSetup, PicturesLibvmafRefusesAreRefusedNamingTheSize) {
  EXPECT_NE(error_of("cambi", 215, 215).find("215x215"), std::string::npos);
  EXPECT_NE(error_of("cambi", 18, 10).find("18x10"), std::string::npos);
  EXPECT_EQ(error_of("cambi", 216, 100), "");
  EXPECT_EQ(error_of("cambi", 100, 216), "");
  // The encoding size, when given, is what must reach 216.
  EXPECT_NE(error_of("cambi=enc_width=200:enc_height=200").find("200x200"), std::string::npos);
  // An encoding larger than the picture is the picture's size.
  EXPECT_EQ(error_of("cambi=enc_width=1920:enc_height=1080"), "");
  EXPECT_NE(error_of("cambi=src_width=700:src_height=300").find("700x300"), std::string::npos);
  // A window past libvmaf's reciprocal table.
  EXPECT_NE(error_of("cambi=window_size=127", 2100, 1100).find("window"), std::string::npos);
  EXPECT_EQ(error_of("cambi=window_size=127", 2000, 1100), "");
}

// Refusals of exactvq's own, where libvmaf reads outside its buffers.
TEST(CambiSetup, PicturesLibvmafMisreadsAreRefused) {
  // The 21-sample window at 2000x20 reaches past scale 1's 10 rows.
  const std::string reach = error_of("cambi", 2000, 20);
  EXPECT_NE(reach.find("2000x20"), std::string::npos) << reach;
  EXPECT_NE(reach.find("window"), std::string::npos) << reach;
  // A 10-bit picture copied whole into a wider buffer (full_ref with a wider source).
  EXPECT_NE(error_of("cambi=full_ref=true:src_width=960:src_height=540", 480, 270, 10).find("960"),
            std::string::npos);
  EXPECT_EQ(error_of("cambi=full_ref=true:src_width=960:src_height=540", 480, 270, 8), "");
  // Both rows 512 samples wide in libvmaf's buffers: the copy is right.
  EXPECT_EQ(error_of("cambi=full_ref=true:src_width=500:src_height=270", 490, 270, 10), "");
  // A visibility threshold above every contrast's threshold: libvmaf's band of
  // codes wraps around and it crashes (rc 139 on a 40x216 banded clip at 50 cd/m^2).
  const std::string dark = error_of("cambi=cambi_vis_lum_threshold=50:max_log_contrast=1");
  EXPECT_NE(dark.find("cambi_vis_lum_threshold=50"), std::string::npos) << dark;
  EXPECT_EQ(error_of("cambi=cambi_vis_lum_threshold=10:max_log_contrast=1"), "");
  EXPECT_EQ(error_of("cambi=cambi_vis_lum_threshold=300:eotf=pq"), "");
}

TEST(CambiSetup, WindowsAndThresholdsAreLibvmafs) {
  const CambiSetup s =
      make_cambi_setup(parse("cambi"), VideoFormat{576, 324, ChromaFormat::k420, 8});
  EXPECT_EQ(s.distorted.window, 9);  // 65 * 900 / 375 >> 4, odd
  EXPECT_EQ(s.num_diffs, 4);
  EXPECT_EQ(s.vlt_luma, 0);
  EXPECT_TRUE(s.distorted.source_rows.empty());
  const CambiSetup big = make_cambi_setup(parse("cambi=cambi_high_res_speedup=1080"),
                                          VideoFormat{1920, 1080, ChromaFormat::k420, 10});
  EXPECT_TRUE(big.high_res_speedup);
  EXPECT_EQ(big.distorted.window, 17);  // 33, halved and made odd
  const CambiSetup small = make_cambi_setup(parse("cambi=cambi_high_res_speedup=1080"),
                                            VideoFormat{1280, 720, ChromaFormat::k420, 10});
  EXPECT_FALSE(small.high_res_speedup);
  // Thresholds grow with the contrast.
  for (int d = 1; d < s.num_diffs; ++d)
    EXPECT_GE(s.tvi_for_diff[size_t(d)], s.tvi_for_diff[size_t(d - 1)]);
}

// The CPU scores (CUDA and OpenCL too: device_test.cpp); a device kind
// without a cambi engine is refused, naming it.
TEST(CambiFeature, DevicesWithoutTheEngineAreRefused) {
  struct FakeDevice final : Device {
    std::string description() const override { return "a fake device"; }
  };
  FeatureContext ctx;
  ctx.format = VideoFormat{216, 216, ChromaFormat::k420, 8};
  ctx.device = std::make_shared<FakeDevice>();
  try {
    make_cambi_feature(CambiOptions{}, ctx);
    ADD_FAILURE() << "no DeviceError";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("cambi is not available on a fake device"),
              std::string::npos)
        << e.what();
  }
  ctx.device = std::shared_ptr<Device>(&cpu_device(), [](Device*) {});
  EXPECT_NO_THROW(make_cambi_feature(CambiOptions{}, ctx));
}

// Heatmaps need the whole run in one process: a run starting inside the video is refused.
TEST(CambiFeature, HeatmapsAreRefusedInsideARunsRange) {
  const std::filesystem::path dir = std::filesystem::path(EXACTVQ_TEST_TMP) / "cambi_range_maps";
  auto feature = testing::cpu_feature("cambi=heatmaps_path=" + dir.string(),
                                      VideoFormat{216, 216, ChromaFormat::k420, 8});
  EXPECT_TRUE(std::filesystem::exists(dir / "cambi_heatmap_scale_4_14x14_16b.gray"));
  EXPECT_NO_THROW(feature->start_at({}, 0));
  EXPECT_THROW(feature->start_at({}, 5), UsageError);
  // Without heatmaps a range is fine (each frame is scored alone).
  EXPECT_NO_THROW(
      testing::cpu_feature("cambi", VideoFormat{216, 216, ChromaFormat::k420, 8})->start_at({}, 5));
}

}  // namespace
}  // namespace exactvq::cambi
