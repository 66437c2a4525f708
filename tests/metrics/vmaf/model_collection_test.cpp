// Model collections (bootstrap models such as vmaf_b_v0.6.3): how a file of
// models "0", "1", ... is read, named and overloaded, each malformed
// collection's clear InputError naming the model and field, and libvmaf's
// percentile and sort on small cases.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "metrics/vmaf/bootstrap.h"
#include "metrics/vmaf/model.h"
#include "metrics/vmaf/model_spec.h"
#include "metrics/vmaf/predict.h"
#include "model_test_support.h"

namespace exactvq::vmaf {
namespace {

// Ordered: a collection's models are read in the file's order.
using ojson = nlohmann::ordered_json;
using namespace exactvq::vmaf::model_testing;

ojson bootstrap_member(const char* type = "BOOTSTRAP_LIBSVMNUSVR") {
  ojson m = ojson::parse(builtin_model_text("vmaf_v0.6.1neg"));
  m["model_dict"]["model_type"] = type;
  return m;
}

// "0" and `members` bootstrap members, changed by `change`.
std::string collection(int members, const std::function<void(ojson&)>& change = {}) {
  ojson c = ojson::object();
  for (int i = 0; i <= members; ++i) c[std::to_string(i)] = bootstrap_member();
  if (change) change(c);
  return c.dump();
}

struct BadCollection {
  const char* what;
  std::function<std::string()> text;
  const char* message;
};

const std::vector<BadCollection> kBadCollections = {
    {"only a main model", [] { return collection(0); },
     "field '1': missing: a model collection has its main model \"0\" and at least one more"},
    {"a gap", [] { return collection(3, [](ojson& c) { c.erase("2"); }); },
     "field '3': model \"3\" out of turn"},
    {"out of order",
     [] {
       ojson c = ojson::object();
       c["1"] = bootstrap_member();
       c["0"] = bootstrap_member();
       return c.dump();
     },
     "field '1': model \"1\" out of turn: a collection's models are \"0\", \"1\", ... in that "
     "order (expected \"0\")"},
    {"a member not an object", [] { return collection(2, [](ojson& c) { c["2"] = 3; }); },
     "field '2': expected an object (a model)"},
    {"a member without model_dict",
     [] { return collection(2, [](ojson& c) { c["1"].erase("model_dict"); }); },
     "field '1.model_dict': missing"},
    {"a member's slopes",
     [] { return collection(2, [](ojson& c) { c["2"]["model_dict"]["slopes"].erase(6); }); },
     "field '2.model_dict.slopes': expected 7 numbers"},
    {"the main model's slopes",
     [] { return collection(2, [](ojson& c) { c["0"]["model_dict"]["slopes"].erase(6); }); },
     "field '0.model_dict.slopes': expected 7 numbers"},
    {"a member's options",
     [] {
       return collection(2, [](ojson& c) {
         c["1"]["model_dict"]["feature_opts_dicts"][0]["x"] = ojson::array();
       });
     },
     "field '1.model_dict.feature_opts_dicts[0].x'"},
    {"a member's libsvm text",
     [] {
       return collection(2, [](ojson& c) { c["2"]["model_dict"]["model"] = "svm_type nu_svr\n"; });
     },
     "field '2.model_dict.model'"},
    {"a plain member",
     [] { return collection(2, [](ojson& c) { c["1"] = bootstrap_member("LIBSVMNUSVR"); }); },
     "field '1.model_dict.model_type': a collection's models 1.. must be BOOTSTRAP_LIBSVMNUSVR"},
    {"a member without a type",
     [] { return collection(2, [](ojson& c) { c["2"]["model_dict"].erase("model_type"); }); },
     "field '2.model_dict.model_type': a collection's models 1.. must be"},
    {"mixed bootstrap types",
     [] {
       return collection(
           3, [](ojson& c) { c["3"] = bootstrap_member("RESIDUEBOOTSTRAP_LIBSVMNUSVR"); });
     },
     "field '3.model_dict.model_type': differs from model 1's"},
    {"a member's unknown feature",
     [] {
       return collection(2, [](ojson& c) {
         c["1"]["model_dict"]["feature_names"][0] = "VMAF_feature_adm2_score";
       });
     },
     "field '1.model_dict.feature_names[0]': unknown feature name"},
};

TEST(ModelCollections, EachBadCollectionNamesItsModelAndField) {
  for (const BadCollection& bad : kBadCollections) {
    SCOPED_TRACE(bad.what);
    try {
      parse_models(bad.text(), "bad.json");
      ADD_FAILURE() << "no InputError";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("model bad.json: ", 0), 0u) << what;
      EXPECT_NE(what.find(bad.message), std::string::npos) << what;
    }
  }
}

TEST(ModelCollections, ReadInFileOrderSkippingOtherKeys) {
  const std::string text = collection(11, [](ojson& c) {
    ojson with_note = ojson::object();
    with_note["about"] = "skipped, as libvmaf skips it";
    for (auto& [k, v] : c.items()) with_note[k] = v;
    c = with_note;
  });
  const ModelCollection c = parse_models(text, "c.json");
  ASSERT_EQ(c.members.size(), 11u);  // "10" and "11" after "9", as the file has them
  EXPECT_EQ(c.main.name, "vmaf");
  EXPECT_EQ(c.members[0].name, "vmaf_0001");
  EXPECT_EQ(c.members[10].name, "vmaf_0011");
  EXPECT_EQ(c.members[10].type, ModelType::kBootstrapLibsvmNusvr);
  // A file with both "model_dict" and "0" is one model, as libvmaf reads it.
  ojson both = bootstrap_member();
  both["0"] = bootstrap_member();
  EXPECT_FALSE(parse_models(both.dump(), "both.json").is_collection());
}

TEST(ModelCollections, SpecNamesAndOverloadsEveryModel) {
  const ModelCollection c = load_models(
      parse_model_spec("version=vmaf_b_v0.6.3:name=b:disable_clip:vif.vif_enhn_gain_limit=1.0"));
  EXPECT_EQ(c.main.name, "b");
  ASSERT_EQ(c.members.size(), 20u);
  EXPECT_EQ(c.members[19].name, "b_0020");
  EXPECT_FALSE(c.main.score_clip.has_value());
  for (const Model& m : c.members) {
    EXPECT_FALSE(m.score_clip.has_value());
    EXPECT_EQ(m.features[2].output_key, "integer_vif_scale0_egl_1");
  }
  EXPECT_EQ(c.main.features[2].output_key, "integer_vif_scale0_egl_1");
  // A single-model caller is told it has a collection.
  EXPECT_THROW(load_model(parse_model_spec("version=vmaf_b_v0.6.3")), UsageError);
  EXPECT_THROW(builtin_model("vmaf_b_v0.6.3"), InputError);
}

TEST(Bootstrap, OutputNamesInLibvmafsOrder) {
  const std::vector<std::string> want = {"v_0001",   "v_0002",      "v_bagging",
                                         "v_stddev", "v_ci_p95_lo", "v_ci_p95_hi"};
  EXPECT_EQ(bootstrap_outputs("v", 2), want);
}

TEST(Bootstrap, Percentile) {
  const std::vector<double> one = {7.0};
  EXPECT_EQ(bootstrap_percentile(one, 2.5), 7.0);
  const std::vector<double> twenty = [] {
    std::vector<double> v;
    for (int i = 0; i < 20; ++i) v.push_back(i * 10.0);
    return v;
  }();
  // Rank 2.5 * 19 / 100 = 0.475 and 97.5 * 19 / 100 = 18.525, in binary64.
  const double p_lo = 2.5 * 19.0 / 100.0, p_hi = 97.5 * 19.0 / 100.0;
  EXPECT_TRUE(same_bits(bootstrap_percentile(twenty, 2.5), 0.0 * (1.0 - p_lo) + 10.0 * p_lo));
  EXPECT_TRUE(
      same_bits(bootstrap_percentile(twenty, 97.5), 180.0 * (19.0 - p_hi) + 190.0 * (p_hi - 18.0)));
  const std::vector<double> five = {1.0, 2.0, 3.0, 4.0, 5.0};
  EXPECT_EQ(bootstrap_percentile(five, 50.0), 3.0);  // an exact rank: no interpolation
}

// The statistics from the members' untransformed predictions, step by step.
TEST(Bootstrap, StatisticsFromTheMembersPredictions) {
  const ModelCollection c = builtin_models("vmaf_b_v0.6.3");
  const std::vector<double> x = {0.93, 3.1, 0.45, 0.8, 0.88, 0.92};  // adm2, motion2, vif0..3
  const std::vector<std::vector<double>> inputs(c.members.size(), x);
  const BootstrapScores s = predict_bootstrap(c.members, inputs);
  std::vector<double> raw;
  double sum = 0.0;
  for (std::size_t i = 0; i < c.members.size(); ++i) {
    raw.push_back(predict_untransformed(c.members[i], x));
    EXPECT_TRUE(same_bits(s.members[i], predict(c.members[i], x))) << i;
    sum += raw.back();
  }
  const double mean = sum / 20.0;
  double ssd = 0.0;
  for (const double r : raw) ssd += (r - mean) * (r - mean);
  std::sort(raw.begin(), raw.end());
  EXPECT_TRUE(same_bits(s.bagging, std::clamp(mean, 0.0, 100.0)));
  EXPECT_TRUE(same_bits(s.ci_p95_lo, std::clamp(bootstrap_percentile(raw, 2.5), 0.0, 100.0)));
  EXPECT_TRUE(same_bits(s.ci_p95_hi, std::clamp(bootstrap_percentile(raw, 97.5), 0.0, 100.0)));
  // Inside the clip the slope of the (untransformed) map is 1 up to rounding.
  EXPECT_NEAR(s.stddev, std::sqrt(ssd / 20.0), 1e-9);
  // Far above the clip every statistic is 100 and the spread vanishes.
  const std::vector<std::vector<double>> high(c.members.size(), {1.0, 20.0, 1.0, 1.0, 1.0, 1.0});
  const BootstrapScores top = predict_bootstrap(c.members, high);
  if (top.ci_p95_lo == 100.0) {
    EXPECT_EQ(top.bagging, 100.0);
    EXPECT_EQ(top.stddev, 0.0);
  }
  EXPECT_THROW(predict_bootstrap(c.members, std::vector<std::vector<double>>(3, x)), InputError);
}

// A NaN input sorts as glibc's qsort leaves it (its comparison calls NaN equal).
TEST(Bootstrap, NaNGivesNaNStatistics) {
  const ModelCollection c = builtin_models("vmaf_b_v0.6.3");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::vector<double>> inputs(c.members.size(),
                                                {nan, 3.1, 0.45, 0.8, 0.88, 0.92});
  const BootstrapScores s = predict_bootstrap(c.members, inputs);
  EXPECT_TRUE(std::isnan(s.stddev));
}

}  // namespace
}  // namespace exactvq::vmaf
