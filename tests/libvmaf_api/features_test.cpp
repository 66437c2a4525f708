// vmaf_use_feature with feature dictionaries, through exactvq's libvmaf.so.3:
// float_ssim and float_ms_ssim with default options, and float_ssim with the
// AOM CTC options set key by key (scale=1, enable_db, clip_db), on the public
// Y4M pairs: every per-frame and pooled value equals libvmaf's plain C
// (libvmaf_vmaf_scores.json's float_ssim_ms_ssim and float_ssim_ctc runs).
#include <gtest/gtest.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api_runs.h"
#include "y4m_pictures.h"
#include "libvmaf/libvmaf.h"

namespace exactvq::libvmaf_test {
namespace {

// Equal bits; a NaN (the JSON's null) equals a NaN.
bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

using Options = std::vector<std::pair<std::string, std::string>>;

// Scores the pair with the features given; returns "frame I NAME" / "pooled NAME
// METHOD" -> value for the names given.
Values score_features(const fs::path& dir,
                      const std::vector<std::pair<std::string, Options>>& features,
                      const std::vector<std::string>& names) {
  VmafConfiguration cfg{};
  cfg.log_level = VMAF_LOG_LEVEL_ERROR;
  VmafContext* vmaf = nullptr;
  EXPECT_EQ(vmaf_init(&vmaf, cfg), 0);
  for (const auto& [name, options] : features) {
    VmafFeatureDictionary* dict = nullptr;
    for (const auto& [key, value] : options)
      EXPECT_EQ(vmaf_feature_dictionary_set(&dict, key.c_str(), value.c_str()), 0);
    EXPECT_EQ(vmaf_use_feature(vmaf, name.c_str(), dict), 0) << name;
  }
  Y4mPictures ref(dir / "ref.y4m"), dist(dir / "dist.y4m");
  unsigned n = 0;
  for (VmafPicture r, d; ref.next(r) && dist.next(d); ++n)
    EXPECT_EQ(vmaf_read_pictures(vmaf, &r, &d, n), 0);
  EXPECT_EQ(vmaf_read_pictures(vmaf, nullptr, nullptr, 0), 0);
  Values values;
  static const char* const kMethods[] = {"", "min", "max", "mean", "harmonic_mean"};
  for (const auto& name : names) {
    double s = 0;
    for (unsigned i = 0; i < n; ++i) {
      EXPECT_EQ(vmaf_feature_score_at_index(vmaf, name.c_str(), &s, i), 0) << name;
      values["frame " + std::to_string(i) + " " + name] = s;
    }
    for (int m = VMAF_POOL_METHOD_MIN; m < VMAF_POOL_METHOD_NB; ++m) {
      EXPECT_EQ(vmaf_feature_score_pooled(vmaf, name.c_str(), VmafPoolingMethod(m), &s, 0, n - 1),
                0);
      values[std::string("pooled ") + name + " " + kMethods[m]] = s;
    }
  }
  vmaf_close(vmaf);
  return values;
}

double as_double(const nlohmann::json& v) {
  return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
}

// The stored run's values under the same keys (null: NaN).
Values stored(const nlohmann::json& run) {
  Values values;
  for (const auto& frame : run["frames"]) {
    const int i = frame["frameNum"];
    for (const auto& [key, value] : frame.items())
      if (key != "frameNum") values["frame " + std::to_string(i) + " " + key] = as_double(value);
  }
  for (const auto& [key, methods] : run["pooled"].items())
    for (const auto& [method, value] : methods.items())
      values["pooled " + key + " " + method] = as_double(value);
  return values;
}

TEST(LibvmafApiFeatures, DictionariesGiveLibvmafsPlainCBits) {
  std::ifstream in(shared_dir() / "vectors" / "libvmaf_vmaf_scores.json");
  if (!in) GTEST_SKIP() << "no " << (shared_dir() / "vectors").string();
  const auto doc = nlohmann::json::parse(in);
  size_t total = 0;
  for (const auto& [pair, entry] : doc["pairs"].items()) {
    const auto& format = entry["format"];
    if (format["file_type"] != "y4m" || format["width"] != 576 || format["height"] != 324) continue;
    const fs::path dir = shared_dir() / "vectors" / pair;
    const struct {
      const char* run;
      std::vector<std::pair<std::string, Options>> features;
      std::vector<std::string> names;
    } cases[] = {
        {"float_ssim_ms_ssim",
         {{"float_ssim", {}}, {"float_ms_ssim", {}}},
         {"float_ssim", "float_ms_ssim"}},
        {"float_ssim_ctc",
         {{"float_ssim", {{"scale", "1"}, {"enable_db", "true"}, {"clip_db", "true"}}}},
         {"float_ssim"}},
    };
    for (const auto& c : cases) {
      const auto& run = entry["runs"][c.run];
      if (run["rc"] != 0) continue;
      const Values want = stored(run), got = score_features(dir, c.features, c.names);
      for (const auto& [key, value] : got) {
        const auto it = want.find(key);
        ASSERT_NE(it, want.end()) << pair << " " << c.run << " " << key;
        EXPECT_TRUE(same_bits(value, it->second))
            << pair << " " << c.run << " " << key << ": " << value << " vs " << it->second;
        total += same_bits(value, it->second);
      }
    }
  }
  std::printf("vmaf_use_feature with dictionaries: %zu values equal libvmaf's plain C\n", total);
}

// vmaf_model_feature_overload on a built-in model (motion_force_zero, as
// FFmpeg passes "motion.motion_force_zero=true" in its model option): per-frame
// scores equal exactvq's command line given the same model text, and the
// overload took effect (the motion features are renamed and zero).
TEST(LibvmafApiFeatures, ModelOverloadsEqualTheCommandLines) {
  const fs::path dir = shared_dir() / "vectors" / "p8_420_576x324_testsrc2_x264";
  if (!fs::exists(dir / "ref.y4m")) GTEST_SKIP() << "no " << dir.string();
  VmafConfiguration cfg{};
  cfg.log_level = VMAF_LOG_LEVEL_ERROR;
  VmafContext* vmaf = nullptr;
  ASSERT_EQ(vmaf_init(&vmaf, cfg), 0);
  VmafModelConfig model_cfg{};
  VmafModel* model = nullptr;
  ASSERT_EQ(vmaf_model_load(&model, &model_cfg, "vmaf_v0.6.1"), 0);
  VmafFeatureDictionary* dict = nullptr;
  ASSERT_EQ(vmaf_feature_dictionary_set(&dict, "motion_force_zero", "true"), 0);
  ASSERT_EQ(vmaf_model_feature_overload(model, "motion", dict), 0);  // taken
  VmafFeatureDictionary* unknown = nullptr;
  ASSERT_EQ(vmaf_feature_dictionary_set(&unknown, "no_such_option", "1"), 0);
  EXPECT_EQ(vmaf_model_feature_overload(model, "motion", unknown), -EINVAL);  // taken too
  ASSERT_EQ(vmaf_use_features_from_model(vmaf, model), 0);
  Y4mPictures ref(dir / "ref.y4m"), dist(dir / "dist.y4m");
  unsigned n = 0;
  for (VmafPicture r, d; ref.next(r) && dist.next(d); ++n)
    ASSERT_EQ(vmaf_read_pictures(vmaf, &r, &d, n), 0);
  ASSERT_EQ(vmaf_read_pictures(vmaf, nullptr, nullptr, 0), 0);

  const fs::path json = fs::path(EXACTVQ_TEST_TMP) / "libvmaf_api_overload.json";
  fs::create_directories(json.parent_path());
  testing_commands::command_output(std::string("'") + EXACTVQ_CLI_PATH + "' -q -r '" +
                                   (dir / "ref.y4m").string() + "' -d '" +
                                   (dir / "dist.y4m").string() +
                                   "' --model version=vmaf_v0.6.1:motion.motion_force_zero=true "
                                   "--json --precision max -o '" +
                                   json.string() + "'");
  std::ifstream in(json);
  const auto doc = nlohmann::json::parse(in);
  ASSERT_EQ(doc["frames"].size(), n);
  for (const auto& frame : doc["frames"]) {
    const unsigned i = frame["frameNum"];
    double s = 0;
    ASSERT_EQ(vmaf_score_at_index(vmaf, model, &s, i), 0);
    EXPECT_TRUE(same_bits(s, frame["metrics"]["vmaf"].get<double>())) << "frame " << i;
    ASSERT_EQ(vmaf_feature_score_at_index(vmaf, "integer_motion2_force_0", &s, i), 0);
    EXPECT_EQ(s, 0.0);
  }
  double plain = 0;
  EXPECT_EQ(vmaf_feature_score_at_index(vmaf, "integer_motion2", &plain, 1), -EINVAL);
  vmaf_model_destroy(model);
  vmaf_close(vmaf);
}

}  // namespace
}  // namespace exactvq::libvmaf_test
