// format_number(): printf's "%.Nf" exactly, or the shortest round-trip decimal.
#include <gtest/gtest.h>

#include <bit>
#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>

#include "output/report.h"
#include "report_fixture.h"

namespace exactvq {
namespace {

std::string printf_fixed(double v, int decimals) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

TEST(FormatNumber, DefaultIsSixDecimals) {
  EXPECT_EQ(format_number(0.944374123, NumberFormat{}), "0.944374");
  EXPECT_EQ(format_number(1.0, NumberFormat{}), "1.000000");
  EXPECT_EQ(format_number(0.0, NumberFormat{}), "0.000000");
  EXPECT_EQ(format_number(-0.0, NumberFormat{}), "-0.000000");
  EXPECT_EQ(format_number(-0.0000001, NumberFormat{}), "-0.000000");  // as printf
  EXPECT_EQ(format_number(12.345, NumberFormat{2, false}), printf_fixed(12.345, 2));
}

TEST(FormatNumber, ZeroDecimalsHasNoPoint) {
  EXPECT_EQ(format_number(3.7, NumberFormat{0, false}), "4");
  EXPECT_EQ(format_number(0.5, NumberFormat{0, false}), "0");  // tie to even, as printf
  EXPECT_EQ(format_number(2.5, NumberFormat{0, false}), "2");
}

TEST(FormatNumber, ExactTiesRoundToEvenLikePrintf) {
  for (const double v : {0.125, 0.375, 2.5, 0.5, 1.5, 0.0625, 1e-6 * 0.5, 5e-7}) {
    for (int d = 0; d <= 17; ++d)
      EXPECT_EQ(format_number(v, NumberFormat{d, false}), printf_fixed(v, d)) << v << " " << d;
  }
}

TEST(FormatNumber, MatchesPrintfOnRandomValues) {
  std::mt19937_64 rng(20240611);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> digits(0, 17);
  for (int i = 0; i < 200000; ++i) {
    double v;
    switch (i % 4) {
      case 0:
        v = unit(rng);
        break;  // scores
      case 1:
        v = unit(rng) * 200.0 - 100.0;
        break;  // decibels
      case 2:
        v = std::bit_cast<double>(rng());
        break;  // anything
      default:
        v = std::ldexp(unit(rng), static_cast<int>(rng() % 80) - 60);
        break;
    }
    if (!std::isfinite(v)) continue;
    ASSERT_EQ(format_number(v, NumberFormat{}), printf_fixed(v, 6)) << std::hexfloat << v;
    const int d = digits(rng);
    ASSERT_EQ(format_number(v, NumberFormat{d, false}), printf_fixed(v, d)) << std::hexfloat << v;
  }
}

TEST(FormatNumber, ExtremeMagnitudesMatchPrintf) {
  for (const double v : {std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
                         std::numeric_limits<double>::min(),
                         std::numeric_limits<double>::denorm_min(), 1e300, 123456789012345678.0}) {
    EXPECT_EQ(format_number(v, NumberFormat{17, false}), printf_fixed(v, 17));
    EXPECT_EQ(format_number(v, NumberFormat{}), printf_fixed(v, 6));
  }
}

TEST(FormatNumber, NonFinite) {
  for (const NumberFormat nf : {NumberFormat{}, NumberFormat{0, false}, NumberFormat{6, true}}) {
    EXPECT_EQ(format_number(test::kInf, nf), "inf");
    EXPECT_EQ(format_number(-test::kInf, nf), "-inf");
    EXPECT_EQ(format_number(test::kNan, nf), "nan");
    EXPECT_EQ(format_number(-test::kNan, nf), "nan");
  }
}

TEST(FormatNumber, ShortestExamples) {
  const NumberFormat s{6, true};
  EXPECT_EQ(format_number(0.1, s), "0.1");
  EXPECT_EQ(format_number(1.0, s), "1");
  EXPECT_EQ(format_number(0.944374, s), "0.944374");
  EXPECT_EQ(format_number(1.0 / 3.0, s), "0.3333333333333333");
  EXPECT_EQ(format_number(1e-5, s), "1e-05");
  EXPECT_EQ(format_number(-0.0, s), "-0.0");  // not "-0": a float to every JSON reader
  EXPECT_EQ(format_number(0.0, s), "0");
}

TEST(FormatNumber, ShortestRoundTripsBitForBit) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const NumberFormat s{6, true};
  for (int i = 0; i < 300000; ++i) {
    double v;
    switch (i % 3) {
      case 0:
        v = std::bit_cast<double>(rng());
        break;
      case 1:
        v = unit(rng);
        break;
      default:
        v = -std::ldexp(unit(rng), static_cast<int>(rng() % 2100) - 1075);
        break;
    }
    if (!std::isfinite(v)) continue;
    const std::string text = format_number(v, s);
    char* end = nullptr;
    const double back = std::strtod(text.c_str(), &end);
    ASSERT_EQ(*end, '\0') << text;
    ASSERT_TRUE(test::same_value(back, v)) << text << " " << std::hexfloat << v;
  }
  for (const double v :
       {std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
        std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::max(),
        -std::numeric_limits<double>::denorm_min(), 1e23, 5e-324, 0.1 + 0.2}) {
    EXPECT_TRUE(test::same_value(test::printed(v, s), v)) << format_number(v, s);
  }
}

TEST(FormatNumber, ShortestIsShortest) {
  // No string with one significant digit fewer reads back to the value: spot check.
  EXPECT_EQ(format_number(0.1 + 0.2, NumberFormat{6, true}), "0.30000000000000004");
  EXPECT_EQ(format_number(9007199254740993.0, NumberFormat{6, true}), "9007199254740992");
}

TEST(FormatNumber, IgnoresTheCLocale) {
  // A locale with a decimal comma, when the system has one; "C" otherwise.
  const char* const old = std::setlocale(LC_ALL, nullptr);
  const std::string saved = old ? old : "C";
  bool changed = false;
  for (const char* name : {"de_DE.UTF-8", "fr_FR.UTF-8", "de_DE", "fr_FR"})
    if (std::setlocale(LC_ALL, name) != nullptr) {
      changed = true;
      break;
    }
  EXPECT_EQ(format_number(0.5, NumberFormat{}), "0.500000");
  EXPECT_EQ(format_number(0.5, NumberFormat{6, true}), "0.5");
  std::setlocale(LC_ALL, saved.c_str());
  if (!changed) GTEST_SKIP() << "no locale with a decimal comma installed";
}

TEST(FormatNumber, DecimalsOutOfRangeThrow) {
  EXPECT_THROW(format_number(1.0, NumberFormat{-1, false}), std::invalid_argument);
  EXPECT_THROW(format_number(1.0, NumberFormat{18, false}), std::invalid_argument);
  EXPECT_NO_THROW(format_number(1.0, NumberFormat{17, false}));
}

}  // namespace
}  // namespace exactvq
