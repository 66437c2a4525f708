// CSV report: libvmaf's bytes, every value read back by splitting on commas.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "output/report.h"
#include "report_fixture.h"

namespace exactvq {
namespace {

std::string write(const ScoreReport& r, const NumberFormat& nf) {
  std::ostringstream out;
  write_report(out, r, OutputFormat::kCsv, nf);
  return out.str();
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  for (;;) {
    const auto at = s.find(sep, start);
    if (at == std::string::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, at - start));
    start = at + 1;
  }
}

TEST(CsvWriter, LibvmafLayoutByteForByte) {
  EXPECT_EQ(write(test::sample_report(), NumberFormat{}),
            "Frame,ssim,ssim_cb,ssim_cr,\n"
            "0,0.944374,0.100000,inf,\n"
            "3,0.950000,0.000000,-inf,\n"
            "6,1.000000,0.333333,nan,\n"
            "9,1.000000,-0.000000,0.250000,\n"
            "12,0.500000,0.750000,0.333333,\n");
}

TEST(CsvWriter, NoFeatures) {
  ScoreReport r;
  r.frame_numbers = {0, 1};
  EXPECT_EQ(write(r, NumberFormat{}), "Frame,\n");
}

// Reads the CSV back: header names, frame numbers, and every value through strtod,
// equal to expect(v) bit for bit (NaN matching NaN).
template <class Expect>
void check_parsed(const std::string& text, const ScoreReport& r, Expect expect) {
  std::vector<std::string> lines = split(text, '\n');
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "");  // the file ends with a newline
  lines.pop_back();
  ASSERT_EQ(lines.size(), r.frame_numbers.size() + 1);

  const std::vector<std::string> header = split(lines[0], ',');
  ASSERT_EQ(header.size(), r.features.size() + 2);  // "Frame", names, "" after the last comma
  EXPECT_EQ(header.front(), "Frame");
  EXPECT_EQ(header.back(), "");
  for (std::size_t j = 0; j < r.features.size(); ++j) EXPECT_EQ(header[j + 1], r.features[j].name);

  for (std::size_t i = 0; i < r.frame_numbers.size(); ++i) {
    const std::vector<std::string> row = split(lines[i + 1], ',');
    ASSERT_EQ(row.size(), r.features.size() + 2);
    EXPECT_EQ(row.front(), std::to_string(r.frame_numbers[i]));
    EXPECT_EQ(row.back(), "");
    for (std::size_t j = 0; j < r.features.size(); ++j) {
      char* end = nullptr;
      const double got = std::strtod(row[j + 1].c_str(), &end);
      EXPECT_EQ(*end, '\0') << row[j + 1];
      EXPECT_TRUE(test::same_value(got, expect(r.features[j].values[i]))) << row[j + 1];
    }
  }
}

TEST(CsvWriter, ParsesBackWithFixedDecimals) {
  const ScoreReport r = test::sample_report();
  for (const int d : {0, 6, 17}) {
    const NumberFormat nf{d, false};
    check_parsed(write(r, nf), r, [&](double v) { return test::printed(v, nf); });
  }
}

TEST(CsvWriter, ShortestRoundTripsEveryValue) {
  const ScoreReport r = test::sample_report();
  check_parsed(write(r, NumberFormat{6, true}), r, [](double v) { return v; });
  std::mt19937_64 rng(13);
  const ScoreReport random = test::random_report(rng, 1000);
  check_parsed(write(random, NumberFormat{6, true}), random, [](double v) { return v; });
}

}  // namespace
}  // namespace exactvq
