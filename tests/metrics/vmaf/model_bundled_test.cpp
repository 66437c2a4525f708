// The bundled models: their embedded text is shared/models/*.json byte for
// byte, and every field predict() uses is what the file holds, read here
// independently with plain nlohmann-json and a plain libsvm line split.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/vmaf/model.h"
#include "model_test_support.h"

namespace exactvq::vmaf {
namespace {

using nlohmann::json;
using namespace exactvq::vmaf::model_testing;

const std::vector<std::string> kVersions = {"vmaf_v0.6.1", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1",
                                            "vmaf_4k_v0.6.1neg", "vmaf_b_v0.6.3"};
const std::vector<std::string> kSingleModels = {"vmaf_v0.6.1", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1",
                                                "vmaf_4k_v0.6.1neg"};
const std::filesystem::path kLibvmafModels = kShared / "reference/libvmaf-3.2.0-f85a853/model";

TEST(BundledModels, VersionsListed) {
  std::vector<std::string> all = kVersions;
  for (const char* v : {"vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_5d0h", "vmaf_v1.0.16_3d0h_2160",
                        "vmaf_v1.0.16_1d5h_2160", "vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr_5d0h",
                        "vmaf_v1.0.16_hfr_3d0h_2160", "vmaf_v1.0.16_hfr_1d5h_2160"})
    all.emplace_back(v);
  EXPECT_EQ(builtin_model_versions(), all);
}

TEST(BundledModels, TextIsTheSharedFile) {
  for (const std::string& v : kVersions) {
    std::filesystem::path file = kSharedModels / (v + ".json");
    if (!std::filesystem::exists(file)) file = kLibvmafModels / (v + ".json");
    if (!std::filesystem::exists(file)) GTEST_SKIP() << "no " << file;
    EXPECT_EQ(std::string(builtin_model_text(v)), read_file(file)) << v;
  }
}

ModelType type_named(const json& md) {
  if (!md.contains("model_type")) return ModelType::kUnspecified;
  const std::string t = md.at("model_type").get<std::string>();
  return t == "BOOTSTRAP_LIBSVMNUSVR" ? ModelType::kBootstrapLibsvmNusvr : ModelType::kLibsvmNusvr;
}

// Every field of `m` against its model_dict, read independently.
void expect_fields(const Model& m, const json& md) {
  EXPECT_EQ(m.type, type_named(md));
  EXPECT_EQ(m.norm_type, NormType::kLinearRescale);
  const json& names = md.at("feature_names");
  ASSERT_EQ(m.features.size(), names.size());
  const std::vector<double> slopes = md.at("slopes").get<std::vector<double>>();
  const std::vector<double> intercepts = md.at("intercepts").get<std::vector<double>>();
  EXPECT_TRUE(same_bits(m.slope, slopes[0]));
  EXPECT_TRUE(same_bits(m.intercept, intercepts[0]));
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(m.features[i].name, names[i].get<std::string>());
    EXPECT_TRUE(same_bits(m.features[i].slope, slopes[i + 1]));
    EXPECT_TRUE(same_bits(m.features[i].intercept, intercepts[i + 1]));
  }
  ASSERT_TRUE(m.score_clip.has_value());
  EXPECT_EQ(m.score_clip->min, md.at("score_clip")[0].get<double>());
  EXPECT_EQ(m.score_clip->max, md.at("score_clip")[1].get<double>());
  EXPECT_FALSE(m.score_transform.enabled);  // present in v0.6.1 but off unless asked
  if (md.contains("score_transform")) {
    const json& st = md.at("score_transform");
    EXPECT_EQ(*m.score_transform.p0, st.at("p0").get<double>());
    EXPECT_EQ(*m.score_transform.p1, st.at("p1").get<double>());
    EXPECT_EQ(*m.score_transform.p2, st.at("p2").get<double>());
    EXPECT_TRUE(m.score_transform.out_gte_in);
    EXPECT_FALSE(m.score_transform.out_lte_in);
    EXPECT_TRUE(m.score_transform.knots.empty());
  }

  // libsvm text: the header lines, then "coef i:v ..." per support vector.
  std::istringstream svm(md.at("model").get<std::string>());
  std::string line, key;
  double gamma = 0, rho = 0;
  long total = 0;
  while (std::getline(svm, line) && line != "SV") {
    std::istringstream words(line);
    words >> key;
    if (key == "gamma") words >> gamma;
    if (key == "rho") words >> rho;
    if (key == "total_sv") words >> total;
  }
  EXPECT_EQ(m.svm.type, SvmType::kNuSvr);
  EXPECT_EQ(m.svm.kernel, SvmKernel::kRbf);
  EXPECT_EQ(m.svm.gamma, gamma);
  EXPECT_EQ(m.svm.rho, rho);
  ASSERT_EQ(static_cast<long>(m.svm.support_vectors.size()), total);
  for (long k = 0; k < total; ++k) {
    ASSERT_TRUE(std::getline(svm, line));
    std::istringstream words(line);
    double coef = 0;
    words >> coef;
    const SupportVector& sv = m.svm.support_vectors[k];
    EXPECT_EQ(sv.coefficient, coef);
    std::size_t n = 0;
    std::string pair;
    while (words >> pair) {
      const std::size_t colon = pair.find(':');
      ASSERT_LT(n, sv.nodes.size());
      EXPECT_EQ(sv.nodes[n].index, std::stoi(pair.substr(0, colon)));
      EXPECT_EQ(sv.nodes[n].value, std::stod(pair.substr(colon + 1)));
      ++n;
    }
    EXPECT_EQ(n, sv.nodes.size());
  }
}

TEST(BundledModels, FieldsEqualTheFile) {
  for (const std::string& v : kSingleModels) {
    SCOPED_TRACE(v);
    const json file = json::parse(builtin_model_text(v));
    const Model m = builtin_model(v);
    EXPECT_EQ(m.version, v);
    EXPECT_EQ(m.name, "vmaf");
    expect_fields(m, file.at("model_dict"));
  }
  // The collection: "0" the main model, "1".."20" its members, named as libvmaf names them.
  const json file = json::parse(builtin_model_text("vmaf_b_v0.6.3"));
  const ModelCollection c = builtin_models("vmaf_b_v0.6.3");
  ASSERT_EQ(c.members.size(), 20u);
  EXPECT_EQ(c.main.name, "vmaf");
  EXPECT_EQ(c.main.version, "vmaf_b_v0.6.3");
  expect_fields(c.main, file.at("0").at("model_dict"));
  for (std::size_t i = 0; i < c.members.size(); ++i) {
    SCOPED_TRACE(i + 1);
    EXPECT_EQ(c.members[i].name, fmt::format("vmaf_{:04}", i + 1));
    EXPECT_EQ(c.members[i].version, "vmaf_b_v0.6.3");
    expect_fields(c.members[i], file.at(std::to_string(i + 1)).at("model_dict"));
  }
  EXPECT_FALSE(builtin_models("vmaf_v0.6.1").is_collection());
  EXPECT_EQ(builtin_model("vmaf_v0.6.1").svm.support_vectors.size(), 211u);
  EXPECT_EQ(builtin_model("vmaf_4k_v0.6.1").svm.support_vectors.size(), 262u);
}

TEST(BundledModels, OutputKeysAsLibvmafNamesThem) {
  const std::vector<std::string> plain = {"integer_adm2",       "integer_motion2",
                                          "integer_vif_scale0", "integer_vif_scale1",
                                          "integer_vif_scale2", "integer_vif_scale3"};
  const std::vector<std::string> extractors = {"adm", "motion", "vif", "vif", "vif", "vif"};
  for (const char* v : {"vmaf_v0.6.1", "vmaf_4k_v0.6.1"}) {
    const Model m = builtin_model(v);
    for (std::size_t i = 0; i < plain.size(); ++i) {
      EXPECT_EQ(m.features[i].output_key, plain[i]);
      EXPECT_EQ(m.features[i].extractor, extractors[i]);
      EXPECT_TRUE(m.features[i].options.empty());
    }
  }
  const Model neg = builtin_model("vmaf_v0.6.1neg");
  const std::vector<std::string> keys = {"integer_adm2_egl_1",       "integer_motion2",
                                         "integer_vif_scale0_egl_1", "integer_vif_scale1_egl_1",
                                         "integer_vif_scale2_egl_1", "integer_vif_scale3_egl_1"};
  for (std::size_t i = 0; i < keys.size(); ++i) EXPECT_EQ(neg.features[i].output_key, keys[i]);
  const FeatureSpec adm = extractor_spec(neg.features[0]);
  EXPECT_EQ(adm.name, "adm");
  ASSERT_EQ(adm.options.size(), 1u);
  EXPECT_EQ(adm.options[0].first, "adm_enhn_gain_limit");
  EXPECT_EQ(adm.options[0].second, "1");  // libvmaf's normalised "1.0"
  EXPECT_EQ(extractor_spec(neg.features[2]).options[0].first, "vif_enhn_gain_limit");
  EXPECT_TRUE(extractor_spec(neg.features[1]).options.empty());
  const std::vector<FeatureSpec> specs = extractor_specs(neg);
  ASSERT_EQ(specs.size(), 3u);  // adm, motion, vif (four vif inputs, one extractor)
  EXPECT_EQ(specs[0].name, "adm");
  EXPECT_EQ(specs[1].name, "motion");
  EXPECT_EQ(specs[2].name, "vif");
  EXPECT_EQ(specs[2].options.at(0).second, "1");
}

TEST(BundledModels, LoadFlags) {
  const Model unclipped = builtin_model("vmaf_v0.6.1", {.disable_clip = true});
  EXPECT_FALSE(unclipped.score_clip.has_value());
  const Model transformed = builtin_model("vmaf_v0.6.1", {.enable_transform = true});
  EXPECT_TRUE(transformed.score_transform.enabled);
  // No score_transform in the 4k model: enable_transform finds nothing to enable.
  EXPECT_FALSE(builtin_model("vmaf_4k_v0.6.1", {.enable_transform = true}).score_transform.enabled);
}

TEST(BundledModels, UnknownVersionNamesTheKnownOnes) {
  try {
    builtin_model("vmaf_v0.6.2");
    FAIL() << "no UsageError";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("vmaf_v0.6.2"), std::string::npos) << what;
    for (const std::string& v : kVersions) EXPECT_NE(what.find(v), std::string::npos) << what;
  }
}

TEST(BundledModels, FileLoadEqualsBuiltin) {
  const std::filesystem::path file = kSharedModels / "vmaf_v0.6.1neg.json";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "no " << file;
  const Model a = load_model_file(file.string());
  const Model b = builtin_model("vmaf_v0.6.1neg");
  EXPECT_EQ(a.version, file.string());
  ASSERT_EQ(a.features.size(), b.features.size());
  for (std::size_t i = 0; i < a.features.size(); ++i)
    EXPECT_EQ(a.features[i].output_key, b.features[i].output_key);
  EXPECT_EQ(a.svm.support_vectors.size(), b.svm.support_vectors.size());
}

}  // namespace
}  // namespace exactvq::vmaf
