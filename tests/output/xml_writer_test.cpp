// XML report: libvmaf's bytes, and every value read back by an XML parser.
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <cstdlib>
#include <locale>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>

#include "output/report.h"
#include "report_fixture.h"

namespace exactvq {
namespace {

std::string write(const ScoreReport& r, const NumberFormat& nf) {
  std::ostringstream out;
  write_report(out, r, OutputFormat::kXml, nf);
  return out.str();
}

TEST(XmlWriter, LibvmafLayoutByteForByte) {
  const std::string expected =
      "<VMAF version=\"0.1.0\">\n"
      "  <params qualityWidth=\"1920\" qualityHeight=\"1080\" />\n"
      "  <fyi fps=\"123.46\" />\n"
      "  <frames>\n"
      "    <frame frameNum=\"0\" ssim=\"0.944374\" ssim_cb=\"0.100000\" ssim_cr=\"inf\" />\n"
      "    <frame frameNum=\"3\" ssim=\"0.950000\" ssim_cb=\"0.000000\" ssim_cr=\"-inf\" />\n"
      "    <frame frameNum=\"6\" ssim=\"1.000000\" ssim_cb=\"0.333333\" ssim_cr=\"nan\" />\n"
      "    <frame frameNum=\"9\" ssim=\"1.000000\" ssim_cb=\"-0.000000\" ssim_cr=\"0.250000\" />\n"
      "    <frame frameNum=\"12\" ssim=\"0.500000\" ssim_cb=\"0.750000\" ssim_cr=\"0.333333\" />\n"
      "  </frames>\n"
      "  <pooled_metrics>\n"
      "    <metric name=\"ssim\" min=\"0.500000\" max=\"1.000000\" mean=\"0.878875\" "
      "harmonic_mean=\"0.856120\" />\n"
      "    <metric name=\"ssim_cb\" min=\"-0.000000\" max=\"0.750000\" mean=\"0.236667\" "
      "harmonic_mean=\"0.181888\" />\n"
      "    <metric name=\"ssim_cr\" min=\"-inf\" max=\"inf\" mean=\"nan\" harmonic_mean=\"nan\" "
      "/>\n"
      "  </pooled_metrics>\n"
      "  <aggregate_metrics />\n"
      "</VMAF>\n";
  EXPECT_EQ(write(test::sample_report(), NumberFormat{}), expected);
}

TEST(XmlWriter, NoFeaturesNoFrames) {
  ScoreReport r;
  r.version = "v";
  r.frame_numbers = {0, 1};
  EXPECT_EQ(write(r, NumberFormat{}),
            "<VMAF version=\"v\">\n"
            "  <params qualityWidth=\"0\" qualityHeight=\"0\" />\n"
            "  <fyi fps=\"0.00\" />\n"
            "  <frames>\n"
            "  </frames>\n"
            "  <pooled_metrics>\n"
            "  </pooled_metrics>\n"
            "  <aggregate_metrics />\n"
            "</VMAF>\n");
}

TEST(XmlWriter, FpsIsAlwaysTwoDecimals) {
  ScoreReport r = test::sample_report();
  r.fps = 0.123456789;
  EXPECT_NE(write(r, NumberFormat{6, true}).find("<fyi fps=\"0.12\" />"), std::string::npos);
  r.fps = test::kInf;
  EXPECT_NE(write(r, NumberFormat{}).find("<fyi fps=\"inf\" />"), std::string::npos);
}

// Parses `text` and checks every frame and pooled value against `r`, read with strtod:
// equal to `expect(v)` bit for bit (NaN matching NaN).
template <class Expect>
void check_parsed(const std::string& text, const ScoreReport& r, Expect expect) {
  pugi::xml_document doc;
  const pugi::xml_parse_result ok = doc.load_string(text.c_str());
  ASSERT_TRUE(ok) << ok.description();
  const pugi::xml_node vmaf = doc.child("VMAF");
  EXPECT_EQ(std::string(vmaf.attribute("version").value()), r.version);
  EXPECT_EQ(vmaf.child("params").attribute("qualityWidth").as_int(), r.width);
  EXPECT_EQ(vmaf.child("params").attribute("qualityHeight").as_int(), r.height);

  std::size_t i = 0;
  for (const pugi::xml_node frame : vmaf.child("frames").children("frame")) {
    ASSERT_LT(i, r.frame_numbers.size());
    pugi::xml_attribute a = frame.first_attribute();
    EXPECT_STREQ(a.name(), "frameNum");
    EXPECT_EQ(a.as_uint(), r.frame_numbers[i]);
    for (const FeatureSeries& f : r.features) {
      a = a.next_attribute();
      ASSERT_TRUE(a);
      EXPECT_EQ(std::string(a.name()), f.name);
      const double got = std::strtod(a.value(), nullptr);
      EXPECT_TRUE(test::same_value(got, expect(f.values[i]))) << f.name << " " << a.value();
    }
    EXPECT_FALSE(a.next_attribute());
    ++i;
  }
  EXPECT_EQ(i, r.frame_numbers.size());

  std::size_t j = 0;
  for (const pugi::xml_node m : vmaf.child("pooled_metrics").children("metric")) {
    ASSERT_LT(j, r.features.size());
    EXPECT_EQ(std::string(m.attribute("name").value()), r.features[j].name);
    const Pooled p = pool(r.features[j].values);
    const std::pair<const char*, double> want[] = {
        {"min", p.min}, {"max", p.max}, {"mean", p.mean}, {"harmonic_mean", p.harmonic_mean}};
    for (const auto& [name, v] : want) {
      const char* text_value = m.attribute(name).value();
      EXPECT_TRUE(test::same_value(std::strtod(text_value, nullptr), expect(v))) << name;
    }
    ++j;
  }
  EXPECT_EQ(j, r.features.size());
  EXPECT_TRUE(vmaf.child("aggregate_metrics"));
}

TEST(XmlWriter, ParsesBackWithSixDecimals) {
  const ScoreReport r = test::sample_report();
  check_parsed(write(r, NumberFormat{}), r,
               [](double v) { return test::printed(v, NumberFormat{}); });
}

TEST(XmlWriter, ShortestRoundTripsEveryValue) {
  const ScoreReport r = test::sample_report();
  check_parsed(write(r, NumberFormat{6, true}), r, [](double v) { return v; });
  std::mt19937_64 rng(11);
  const ScoreReport random = test::random_report(rng, 500);
  check_parsed(write(random, NumberFormat{6, true}), random, [](double v) { return v; });
}

TEST(XmlWriter, EscapesTheVersion) {
  ScoreReport r = test::sample_report();
  r.version = "1 <\"&\">";
  const std::string text = write(r, NumberFormat{});
  EXPECT_NE(text.find("<VMAF version=\"1 &lt;&quot;&amp;&quot;&gt;\">"), std::string::npos);
  check_parsed(text, r, [](double v) { return test::printed(v, NumberFormat{}); });
}

// A stream locale with a decimal comma and digit grouping changes nothing.
struct CommaPunct : std::numpunct<char> {
  char do_decimal_point() const override { return ','; }
  char do_thousands_sep() const override { return '.'; }
  std::string do_grouping() const override { return "\3"; }
};

TEST(XmlWriter, IgnoresTheStreamLocale) {
  ScoreReport r = test::sample_report();
  r.frame_numbers = {0, 1000, 2000, 3000, 1234567};
  for (const OutputFormat fmt : {OutputFormat::kXml, OutputFormat::kJson, OutputFormat::kCsv}) {
    std::ostringstream plain, odd;
    odd.imbue(std::locale(std::locale::classic(), new CommaPunct));
    write_report(plain, r, fmt, NumberFormat{});
    write_report(odd, r, fmt, NumberFormat{});
    EXPECT_EQ(odd.str(), plain.str());
    EXPECT_NE(plain.str().find("1234567"), std::string::npos);
  }
}

TEST(XmlWriter, MismatchedSeriesIsRejected) {
  ScoreReport r = test::sample_report();
  r.features[1].values.pop_back();
  std::ostringstream out;
  EXPECT_THROW(write_report(out, r, OutputFormat::kXml, NumberFormat{}), std::invalid_argument);
  EXPECT_TRUE(out.str().empty());
}

}  // namespace
}  // namespace exactvq
