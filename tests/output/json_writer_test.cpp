// JSON report: libvmaf's bytes, always valid JSON, every value read back.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>

#include "output/report.h"
#include "report_fixture.h"

namespace exactvq {
namespace {

std::string write(const ScoreReport& r, const NumberFormat& nf) {
  std::ostringstream out;
  write_report(out, r, OutputFormat::kJson, nf);
  return out.str();
}

TEST(JsonWriter, LibvmafLayoutByteForByte) {
  ScoreReport r = test::sample_report();
  r.frame_numbers.resize(2);
  r.features.resize(2);
  r.features[0].values = {0.944374, 0.9};
  r.features[1].values = {0.5, 0.25};
  const std::string expected =
      "{\n"
      "  \"version\": \"0.1.0\",\n"
      "  \"fps\": 123.46,\n"
      "  \"frames\": [\n"
      "    {\n"
      "      \"frameNum\": 0,\n"
      "      \"metrics\": {\n"
      "        \"ssim\": 0.944374,\n"
      "        \"ssim_cb\": 0.500000\n"
      "      }\n"
      "    },\n"
      "    {\n"
      "      \"frameNum\": 3,\n"
      "      \"metrics\": {\n"
      "        \"ssim\": 0.900000,\n"
      "        \"ssim_cb\": 0.250000\n"
      "      }\n"
      "    }\n"
      "  ],\n"
      "  \"pooled_metrics\": {\n"
      "    \"ssim\": {\n"
      "      \"min\": 0.900000,\n"
      "      \"max\": 0.944374,\n"
      "      \"mean\": 0.922187,\n"
      "      \"harmonic_mean\": 0.921931\n"
      "    },\n"
      "    \"ssim_cb\": {\n"
      "      \"min\": 0.250000,\n"
      "      \"max\": 0.500000,\n"
      "      \"mean\": 0.375000,\n"
      "      \"harmonic_mean\": 0.363636\n"
      "    }\n"
      "  },\n"
      "  \"aggregate_metrics\": {\n"
      "  }\n"
      "}\n";
  EXPECT_EQ(write(r, NumberFormat{}), expected);
}

TEST(JsonWriter, NonFiniteIsNullAndKeepsItsNewline) {
  const std::string text = write(test::sample_report(), NumberFormat{});
  EXPECT_NE(text.find("        \"ssim_cr\": null\n      }\n    },\n    {\n      \"frameNum\": 3,"),
            std::string::npos);
  EXPECT_NE(text.find("        \"ssim_cr\": null\n      }\n    },\n    {\n      \"frameNum\": 6,"),
            std::string::npos);
  EXPECT_NE(text.find("    \"ssim_cr\": {\n      \"min\": null,\n      \"max\": null,\n"
                      "      \"mean\": null,\n      \"harmonic_mean\": null\n    }\n"),
            std::string::npos);
  EXPECT_TRUE(nlohmann::json::accept(text));
}

TEST(JsonWriter, FpsIsTwoDecimalsOrNull) {
  ScoreReport r = test::sample_report();
  r.fps = 0.126;
  EXPECT_NE(write(r, NumberFormat{6, true}).find("\n  \"fps\": 0.13,\n"), std::string::npos);
  for (const double fps : {test::kInf, -test::kInf, test::kNan}) {
    r.fps = fps;
    const std::string text = write(r, NumberFormat{});
    EXPECT_NE(text.find("\n  \"fps\": null,\n"), std::string::npos);
    EXPECT_TRUE(nlohmann::json::parse(text)["fps"].is_null());
  }
}

TEST(JsonWriter, EmptyReportsAreValid) {
  ScoreReport r;
  r.version = "v";
  EXPECT_EQ(write(r, NumberFormat{}),
            "{\n"
            "  \"version\": \"v\",\n"
            "  \"fps\": 0.00,\n"
            "  \"frames\": [\n"
            "  ],\n"
            "  \"pooled_metrics\": {\n"
            "  },\n"
            "  \"aggregate_metrics\": {\n"
            "  }\n"
            "}\n");
  EXPECT_TRUE(nlohmann::json::accept(write(r, NumberFormat{})));
  r.features = {{"ssim", {}}};
  const nlohmann::json j = nlohmann::json::parse(write(r, NumberFormat{}));
  EXPECT_TRUE(j["frames"].empty());
  EXPECT_TRUE(j["pooled_metrics"]["ssim"]["mean"].is_null());  // empty series: NaN
}

TEST(JsonWriter, FirstFrameNotZeroIsStillValid) {
  ScoreReport r = test::sample_report();
  r.frame_numbers = {5, 10, 15, 20, 25};
  const nlohmann::json j = nlohmann::json::parse(write(r, NumberFormat{}));
  EXPECT_EQ(j["frames"][0]["frameNum"], 5);
}

TEST(JsonWriter, EscapesStrings) {
  ScoreReport r = test::sample_report();
  r.version = "a\"b\\c\n\x01";
  r.features[0].name = "we\"ird";
  const nlohmann::json j = nlohmann::json::parse(write(r, NumberFormat{}));
  EXPECT_EQ(j["version"], r.version);
  EXPECT_TRUE(j["frames"][0]["metrics"].contains("we\"ird"));
}

// Every frame and pooled value of `r` as parsed back: expect(v), or null when the
// printed value is not finite.
template <class Expect>
void check_parsed(const std::string& text, const ScoreReport& r, Expect expect) {
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(text)) << text;
  EXPECT_EQ(j["version"], r.version);
  const auto check = [&](const nlohmann::json& node, double v, const std::string& where) {
    const double want = expect(v);
    if (!std::isfinite(want)) {
      EXPECT_TRUE(node.is_null()) << where;
    } else {
      ASSERT_TRUE(node.is_number()) << where;
      EXPECT_TRUE(test::same_value(node.get<double>(), want)) << where << " " << node.dump();
    }
  };
  ASSERT_EQ(j["frames"].size(), r.frame_numbers.size());
  for (std::size_t i = 0; i < r.frame_numbers.size(); ++i) {
    const nlohmann::json& frame = j["frames"][i];
    EXPECT_EQ(frame["frameNum"].get<uint32_t>(), r.frame_numbers[i]);
    ASSERT_EQ(frame["metrics"].size(), r.features.size());
    // nlohmann::json sorts keys: look each feature up by name (the order is in the
    // byte-for-byte test).
    for (const FeatureSeries& f : r.features)
      check(frame["metrics"].at(f.name), f.values[i], f.name + "@" + std::to_string(i));
  }
  ASSERT_EQ(j["pooled_metrics"].size(), r.features.size());
  for (const FeatureSeries& f : r.features) {
    const Pooled p = pool(f.values);
    const nlohmann::json& m = j["pooled_metrics"].at(f.name);
    check(m.at("min"), p.min, f.name + " min");
    check(m.at("max"), p.max, f.name + " max");
    check(m.at("mean"), p.mean, f.name + " mean");
    check(m.at("harmonic_mean"), p.harmonic_mean, f.name + " harmonic_mean");
  }
  EXPECT_TRUE(j["aggregate_metrics"].is_object());
  EXPECT_TRUE(j["aggregate_metrics"].empty());
}

TEST(JsonWriter, ParsesBackWithSixDecimals) {
  const ScoreReport r = test::sample_report();
  check_parsed(write(r, NumberFormat{}), r,
               [](double v) { return test::printed(v, NumberFormat{}); });
  check_parsed(write(r, NumberFormat{17, false}), r, [](double v) {
    return test::printed(v, NumberFormat{17, false});
  });
}

TEST(JsonWriter, ShortestRoundTripsEveryValue) {
  const ScoreReport r = test::sample_report();
  check_parsed(write(r, NumberFormat{6, true}), r, [](double v) { return v; });
  std::mt19937_64 rng(12);
  const ScoreReport random = test::random_report(rng, 500);
  check_parsed(write(random, NumberFormat{6, true}), random, [](double v) { return v; });
}

}  // namespace
}  // namespace exactvq
