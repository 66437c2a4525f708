// --plot FILE.svg through the CLI: the chart holds the run's frames and features, its
// path is checked before scoring, and a failed run leaves no chart.
#include <pugixml.hpp>

#include "cli/cli_fixture.h"

namespace exactvq::clitest {
namespace {

class Plot : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    fmt_ = make_format(24, 16);
    ref_ = write_y4m("ref.y4m", fmt_, 12, 0);
    dist_ = write_y4m("dist.y4m", fmt_, 12, 1);
  }

  VideoFormat fmt_;
  std::string ref_, dist_;
};

std::vector<pugi::xml_node> with_class(pugi::xml_node root, const std::string& cls) {
  std::vector<pugi::xml_node> out;
  for (const pugi::xpath_node& n :
       root.select_nodes(("descendant::*[@class='" + cls + "']").c_str()))
    out.push_back(n.node());
  return out;
}

TEST_F(Plot, ChartOfTheRunBesideTheReport) {
  const RunResult r =
      run_cli({"-r", ref_, "-d", dist_, "--feature", "ssim=chroma=true", "--json", "--precision",
               "max", "-o", path("s.json"), "--plot", path("s.svg")});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  const Report json = parse_json(read_file(path("s.json")));

  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_file(path("s.svg").c_str()));
  const pugi::xml_node svg = doc.child("svg");
  ASSERT_TRUE(svg);
  EXPECT_EQ(std::string(svg.child("title").text().get()), dist_ + " against " + ref_);
  const auto panels = with_class(svg, "panel");
  ASSERT_EQ(panels.size(), json.names.size());
  for (size_t k = 0; k < panels.size(); ++k) {
    const std::string name = json.names[k];
    SCOPED_TRACE(name);
    EXPECT_EQ(panels[k].attribute("data-feature").value(), name);
    const auto series = with_class(panels[k], "series");
    ASSERT_EQ(series.size(), 1u);
    std::istringstream points(series[0].attribute("points").value());
    size_t n = 0;
    for (std::string p; points >> p;) ++n;
    EXPECT_EQ(n, json.frames.size());
    // The first marked frame is the lowest score of the report.
    const auto& values = json.values.at(name);
    const size_t lowest = size_t(std::min_element(values.begin(), values.end()) - values.begin());
    const auto worst = with_class(panels[k], "worst-frame");
    ASSERT_EQ(worst.size(), 5u);
    EXPECT_EQ(worst[0].attribute("data-frame").as_llong(), json.frames[lowest]);
    EXPECT_EQ(with_class(panels[k], "mean").size(), 1u);
  }
}

TEST_F(Plot, ToStandardOutputInsteadOfTheSummary) {
  const RunResult r = run_cli({"-r", ref_, "-d", dist_, "--plot", "-"});
  ASSERT_EQ(r.status, 0) << describe(r);
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(r.out.c_str())) << r.out.substr(0, 200);
  EXPECT_TRUE(doc.child("svg"));
  EXPECT_EQ(r.out.find("ssim:"), std::string::npos);
}

TEST_F(Plot, BadPathIsRefusedBeforeScoring) {
  const std::string missing_dir = path("no/such/dir/p.svg");
  expect_refused({"-r", ref_, "-d", dist_, "--plot", missing_dir}, kExitFailure,
                 {"cannot write " + missing_dir});
  expect_refused({"-r", ref_, "-d", dist_, "--plot", ref_}, kExitFailure, {ref_});
  expect_refused({"-r", ref_, "-d", dist_, "--plot", ""}, kExitUsage, {"--plot ''"});
  EXPECT_EQ(read_file(ref_), y4m_bytes(fmt_, make_frames(fmt_, 12, 0)));
}

TEST_F(Plot, SameFileAsTheReportIsAUsageError) {
  const RunResult r = run_cli({"-r", ref_, "-d", dist_, "-o", path("x"), "--plot", path("x")});
  EXPECT_EQ(r.status, kExitUsage) << describe(r);
  EXPECT_NE(r.err.find("-o and --plot both name"), std::string::npos) << describe(r);
  EXPECT_FALSE(fs::exists(path("x")));
}

TEST_F(Plot, FailedRunLeavesAnExistingChartUntouched) {
  const std::string chart = write("old.svg", "<svg/>\n");
  std::string cut = read_file(dist_);
  cut.resize(cut.size() - 7);
  const std::string bad = write("cut.y4m", cut);
  const RunResult r = run_cli({"-r", ref_, "-d", bad, "--plot", chart});
  EXPECT_EQ(r.status, kExitPicture) << describe(r);
  EXPECT_NE(r.err.find("truncated frame 11"), std::string::npos) << describe(r);
  EXPECT_EQ(read_file(chart), "<svg/>\n");
  EXPECT_EQ(list_dir(dir_), (std::set<std::string>{"cut.y4m", "dist.y4m", "old.svg", "ref.y4m"}));
}

}  // namespace
}  // namespace exactvq::clitest
