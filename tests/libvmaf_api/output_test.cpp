// vmaf_write_output's files against exactvq's command line for the same run
// (VMAF v0.6.1 on a public pair): XML, JSON and CSV equal the CLI's byte for
// byte but for the fps line (a timing); SUB holds the CSV's frames and values;
// all four equal upstream's vmaf_write_output but for the version and the fps.
#include <gtest/gtest.h>

#include <sstream>

#include "api_runs.h"

namespace exactvq::libvmaf_test {
namespace {

std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, c)) parts.push_back(part);
  return parts;
}

class LibvmafApiOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    pair_ = shared_dir() / "vectors" / "p8_420_576x324_testsrc2_x264";
    if (!fs::exists(pair_ / "ref.y4m")) GTEST_SKIP() << "no " << pair_.string();
    out_ = fs::path(EXACTVQ_TEST_TMP) / "libvmaf_api_output";
    fs::create_directories(out_);
    run_scores(EXACTVQ_LIBVMAF_DIR, pair_ / "ref.y4m", pair_ / "dist.y4m", 0, kDefaultDispatch,
               (out_ / "api").string());
  }

  std::string cli(const std::string& format) {
    const fs::path path = out_ / ("cli." + format);
    testing_commands::command_output(
        std::string("'") + EXACTVQ_CLI_PATH + "' -q -r '" + (pair_ / "ref.y4m").string() +
        "' -d '" + (pair_ / "dist.y4m").string() + "' --model version=vmaf_v0.6.1 --" + format +
        " -o '" + path.string() + "'");
    return read_file(path);
  }

  fs::path pair_, out_;
};

TEST_F(LibvmafApiOutput, XmlJsonCsvEqualTheCommandLines) {
  for (const std::string format : {"xml", "json", "csv"}) {
    const std::string api = read_file(out_ / ("api." + format));
    ASSERT_FALSE(api.empty()) << format;
    EXPECT_EQ(without_fps(api), without_fps(cli(format))) << format;
  }
}

// Upstream's vmaf_write_output, called by the same program (its plain C): the
// same files but the version and the fps, in all four formats.
TEST_F(LibvmafApiOutput, EqualUpstreamsButVersionAndFps) {
  const std::string upstream = upstream_library_dir();
  if (upstream.empty()) GTEST_SKIP() << "no upstream libvmaf.so.3 in " << shared_dir().string();
  run_scores(upstream, pair_ / "ref.y4m", pair_ / "dist.y4m", 0, kPlainC,
             (out_ / "upstream").string());
  for (const std::string format : {"xml", "json", "csv", "sub"}) {
    const std::string ours = read_file(out_ / ("api." + format));
    const std::string theirs = read_file(out_ / ("upstream." + format));
    ASSERT_FALSE(theirs.empty()) << format;
    EXPECT_EQ(without_version(without_fps(ours)), without_version(without_fps(theirs))) << format;
  }
}

TEST_F(LibvmafApiOutput, SubHoldsTheCsvsValues) {
  const auto csv = split(read_file(out_ / "api.csv"), '\n');
  const auto sub = split(read_file(out_ / "api.sub"), '\n');
  ASSERT_EQ(sub.size() + 1, csv.size());  // the CSV has a header line
  const auto names = split(csv[0], ',');
  for (size_t f = 0; f < sub.size(); ++f) {
    const auto values = split(csv[f + 1], ',');
    std::string want = "{" + values[0] + "}{" + std::to_string(std::stoi(values[0]) + 1) +
                       "}frame: " + values[0] + "|";
    for (size_t c = 1; c < names.size(); ++c) want += names[c] + ": " + values[c] + "|";
    EXPECT_EQ(sub[f], want);
  }
}

}  // namespace
}  // namespace exactvq::libvmaf_test
