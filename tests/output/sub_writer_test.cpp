// SUB report (--sub): libvmaf's MicroDVD lines, byte for byte.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "output/report.h"
#include "report_fixture.h"

namespace exactvq {
namespace {

std::string write(const ScoreReport& r, const NumberFormat& nf) {
  std::ostringstream out;
  write_report(out, r, OutputFormat::kSub, nf);
  return out.str();
}

// A fraction with more than six leading zeros (1e-7) takes 16 decimals, as libvmaf
// prints it; frame numbers are the input's (subsampled: 0, 3, 6, ...).
TEST(SubWriter, LibvmafLayoutByteForByte) {
  EXPECT_EQ(write(test::sample_report(), NumberFormat{}),
            "{0}{1}frame: 0|ssim: 0.944374|ssim_cb: 0.100000|ssim_cr: inf|\n"
            "{3}{4}frame: 3|ssim: 0.950000|ssim_cb: 0.0000001000000000|ssim_cr: -inf|\n"
            "{6}{7}frame: 6|ssim: 1.000000|ssim_cb: 0.333333|ssim_cr: nan|\n"
            "{9}{10}frame: 9|ssim: 1.000000|ssim_cb: -0.000000|ssim_cr: 0.250000|\n"
            "{12}{13}frame: 12|ssim: 0.500000|ssim_cb: 0.750000|ssim_cr: 0.333333|\n");
}

// --precision replaces libvmaf's 6 decimals everywhere, the tiny values included.
TEST(SubWriter, PrecisionAppliesToEveryValue) {
  const std::string text = write(test::sample_report(), NumberFormat{0, true});
  EXPECT_NE(text.find("|ssim_cb: 1e-07|"), std::string::npos) << text;
  EXPECT_NE(text.find("|ssim: 0.944374123456789|"), std::string::npos) << text;
}

TEST(SubWriter, NoFeaturesNoLines) {
  ScoreReport r = test::sample_report();
  r.features.clear();
  EXPECT_EQ(write(r, NumberFormat{}), "");
}

}  // namespace
}  // namespace exactvq
