// The prediction's stages on hand-made inputs: the kernel walk over absent
// indices, the transform's polynomial, knots and rectification, the clip, and
// the JSON reading that keeps a negative zero.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/error.h"
#include "metrics/vmaf/model.h"
#include "metrics/vmaf/model_features.h"
#include "metrics/vmaf/model_json.h"
#include "metrics/vmaf/predict.h"
#include "model_test_support.h"

namespace exactvq::vmaf {
namespace {

using namespace exactvq::vmaf::model_testing;

TEST(PredictStages, KernelSumsAbsentIndicesAsZero) {
  SvmModel svm;
  svm.gamma = 0.5;
  svm.rho = 0.25;
  svm.support_vectors = {{2.0, {{1, 1.0}, {3, 2.0}}}, {-1.0, {{2, 0.5}}}, {0.5, {}}};
  const std::vector<double> x = {0.5, 1.5, 1.0};
  // |x - sv|^2 term by term in index order, as libvmaf's walk adds them.
  const double d0 = (0.5 - 1.0) * (0.5 - 1.0) + 1.5 * 1.5 + (1.0 - 2.0) * (1.0 - 2.0);
  const double d1 = 0.5 * 0.5 + (1.5 - 0.5) * (1.5 - 0.5) + 1.0 * 1.0;
  const double d2 = 0.5 * 0.5 + 1.5 * 1.5 + 1.0 * 1.0;
  double want = 0.0;
  want += 2.0 * std::exp(-0.5 * d0);
  want += -1.0 * std::exp(-0.5 * d1);
  want += 0.5 * std::exp(-0.5 * d2);
  want -= 0.25;
  EXPECT_TRUE(same_bits(svm_decision_value(svm, x), want));
}

TEST(PredictStages, Polynomial) {
  ScoreTransform t;
  EXPECT_EQ(apply_score_transform(t, 3.0), 3.0);  // disabled
  t.enabled = true;
  EXPECT_EQ(apply_score_transform(t, 3.0), 3.0);  // nothing to do
  t.p0 = 1.0;
  t.p2 = 0.5;
  EXPECT_EQ(apply_score_transform(t, 3.0), 1.0 + 0.5 * 3.0 * 3.0);
  t.p1 = -2.0;
  EXPECT_EQ(apply_score_transform(t, 3.0), 1.0 + -2.0 * 3.0 + 0.5 * 3.0 * 3.0);
  t.out_lte_in = true;  // 1 - 6 + 4.5 = -0.5 <= 3: kept
  EXPECT_EQ(apply_score_transform(t, 3.0), -0.5);
  t.out_lte_in = false;
  t.out_gte_in = true;
  EXPECT_EQ(apply_score_transform(t, 3.0), 3.0);
}

TEST(PredictStages, Knots) {
  ScoreTransform t;
  t.enabled = true;
  t.knots = {{0.0, 10.0}, {50.0, 20.0}, {80.0, 20.0}, {100.0, 60.0}};
  EXPECT_EQ(apply_score_transform(t, 25.0), (20.0 - 10.0) / 50.0 * 25.0 + 10.0);
  EXPECT_EQ(apply_score_transform(t, -10.0), (20.0 - 10.0) / 50.0 * -10.0 + 10.0);
  EXPECT_EQ(apply_score_transform(t, 60.0), 20.0);  // horizontal segment
  EXPECT_EQ(apply_score_transform(t, 50.0), 20.0);  // shared knot: the later segment
  const double slope = (60.0 - 20.0) / (100.0 - 80.0);
  EXPECT_EQ(apply_score_transform(t, 120.0), slope * 120.0 + (20.0 - 80.0 * slope));
  t.knots.resize(1);  // one knot: no mapping
  EXPECT_EQ(apply_score_transform(t, 25.0), 25.0);
}

TEST(PredictStages, Clip) {
  const ScoreClip c{0.0, 100.0};
  EXPECT_EQ(apply_score_clip(c, -3.0), 0.0);
  EXPECT_EQ(apply_score_clip(c, 103.0), 100.0);
  EXPECT_EQ(apply_score_clip(c, 42.5), 42.5);
  EXPECT_TRUE(std::isnan(apply_score_clip(c, std::nan(""))));  // as libvmaf: NaN stays
}

TEST(PredictStages, InputCountChecked) {
  const Model m = builtin_model("vmaf_v0.6.1");
  const std::vector<double> five(5, 0.5);
  EXPECT_THROW(predict(m, five), InputError);
  const std::vector<double> six(6, 0.5);
  EXPECT_TRUE(std::isfinite(predict(m, six)));
}

TEST(PredictStages, NegativeZeroSurvivesJsonReading) {
  const nlohmann::json j =
      read_json_document("{\"a\": -0, \"b\": [-0, 0, -0.0, \"-0\"]}", "t").root;
  EXPECT_TRUE(std::signbit(j.at("a").get<double>()));
  EXPECT_TRUE(std::signbit(j.at("b")[0].get<double>()));
  EXPECT_FALSE(std::signbit(j.at("b")[1].get<double>()));
  EXPECT_TRUE(std::signbit(j.at("b")[2].get<double>()));
  EXPECT_EQ(j.at("b")[3].get<std::string>(), "-0");
  EXPECT_THROW(read_json_document("{\"a\": -01}", "t"), InputError);
  // An exponent's "-0" is no negative zero: left alone.
  const JsonDocument e = read_json_document("[1e-0, 2E-0, -0e1, \"x\\\"-0\"]", "t");
  EXPECT_EQ(e.root[0].get<double>(), 1.0);
  EXPECT_EQ(e.root[1].get<double>(), 2.0);
  EXPECT_TRUE(std::signbit(e.root[2].get<double>()));
  EXPECT_EQ(e.root[3].get<std::string>(), "x\"-0");
}

TEST(PredictStages, NumbersKeepTheirText) {
  const JsonDocument d = read_json_document("{\"o\": [{\"k/x\": 1.50}, 7, -0], \"p\": 1e2}", "t");
  EXPECT_EQ(d.number_text.at("/o/0/k~1x"), "1.50");
  EXPECT_EQ(d.number_text.at("/o/1"), "7");
  EXPECT_EQ(d.number_text.at("/o/2"), "-0.0");
  EXPECT_EQ(d.number_text.at("/p"), "1e2");
  EXPECT_EQ(normalised_number_text("1.0"), "1");
  EXPECT_EQ(normalised_number_text("0.12345678"), "0.123457");
  EXPECT_EQ(normalised_number_text("1e39"), "inf");
  EXPECT_EQ(normalised_number_text("-1e39"), "-inf");
  EXPECT_EQ(normalised_number_text("100000000"), "1e+08");
  EXPECT_EQ(normalised_number_text("-0.0"), "-0");
}

}  // namespace
}  // namespace exactvq::vmaf
