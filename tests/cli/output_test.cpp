// Successful runs: the summary line, the three report formats read back and checked
// against each other and against the library's scores, frame selection, threads,
// decibels and chroma.
#include <cmath>
#include <regex>

#include "cli/cli_fixture.h"
#include "metrics/ssim/decibels.h"
#include "metrics/ssim/reference.h"

namespace exactvq::clitest {
namespace {

class Output : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    // Odd sizes: chroma is ceil(W/2) x ceil(H/2).
    fmt_ = make_format(23, 17);
    ref_frames_ = make_frames(fmt_, 6, 0);
    dist_frames_ = make_frames(fmt_, 6, 1);
    ref_ = write("ref.y4m", y4m_bytes(fmt_, ref_frames_));
    dist_ = write("dist.y4m", y4m_bytes(fmt_, dist_frames_));
  }

  // Runs with `extra` and -o into a fresh file; returns its text (empty on failure).
  std::string report(const std::vector<std::string>& extra, const std::string& name) {
    return report_for(ref_, dist_, extra, name);
  }
  std::string report_for(const std::string& ref, const std::string& dist,
                         const std::vector<std::string>& extra, const std::string& name) {
    std::vector<std::string> a{"-r", ref, "-d", dist, "-o", path(name)};
    a.insert(a.end(), extra.begin(), extra.end());
    const RunResult r = run_cli(a);
    EXPECT_EQ(r.status, 0) << describe(r);
    EXPECT_EQ(r.err, "") << describe(r);
    EXPECT_EQ(r.out, "") << "a run with -o prints no summary\n" << describe(r);
    return read_file(path(name));
  }

  // The library's score of ref frame `ri` against dist frame `di`, plane p.
  double library_score(int ri, int di, int p, bool raster = false) const {
    const Picture r = to_picture(fmt_, ref_frames_[size_t(ri)]);
    const Picture d = to_picture(fmt_, dist_frames_[size_t(di)]);
    return raster ? ssim::score_raster(r.plane(p), d.plane(p), fmt_.bitdepth)
                  : ssim::score_exact(r.plane(p), d.plane(p), fmt_.bitdepth);
  }

  VideoFormat fmt_;
  std::vector<Frame> ref_frames_, dist_frames_;
  std::string ref_, dist_;
};

std::string without_fps(const std::string& text) {
  return std::regex_replace(text, std::regex("fps[\"=: ]*[0-9.]+\"?"), "fps");
}

TEST_F(Output, DefaultSummaryLine) {
  const RunResult r = run_cli({"-r", ref_, "-d", dist_});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.err, "");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(r.out, m, std::regex("ssim: ([0-9]\\.[0-9]{6})\n"))) << r.out;
  double sum = 0;
  for (int i = 0; i < 6; ++i) sum += library_score(i, i, 0);
  char want[32];
  std::snprintf(want, sizeof want, "%.6f", sum / 6);
  EXPECT_EQ(m[1].str(), want);
  const double v = parse_double(m[1].str());
  EXPECT_GT(v, 0.3);
  EXPECT_LT(v, 0.999);

  const RunResult q = run_cli({"-r", ref_, "-d", dist_, "-q"});
  EXPECT_EQ(q.status, 0) << describe(q);
  EXPECT_EQ(q.out, "");
  EXPECT_EQ(q.err, "");
}

TEST_F(Output, SummaryPrecisionMaxIsTheMeanOfTheFrames) {
  const RunResult r = run_cli({"-r", ref_, "-d", dist_, "--precision", "max"});
  ASSERT_EQ(r.status, 0) << describe(r);
  std::smatch m;
  ASSERT_TRUE(std::regex_match(r.out, m, std::regex("ssim: (\\S+)\n"))) << r.out;
  double sum = 0;
  for (int i = 0; i < 6; ++i) sum += library_score(i, i, 0);
  EXPECT_EQ(bits(parse_double(m[1].str())), bits(sum / 6)) << m[1].str();
}

TEST_F(Output, FormatsAgree) {
  const Report xml = parse_xml(report({}, "o.xml"));
  const Report xml2 = parse_xml(report({"--xml"}, "o2.xml"));
  const Report json = parse_json(report({"--json"}, "o.json"));
  const Report csv = parse_csv(report({"--csv"}, "o.csv"));
  const std::vector<int64_t> frames{0, 1, 2, 3, 4, 5};
  for (const Report* r : {&xml, &xml2, &json, &csv}) {
    EXPECT_EQ(r->frames, frames);
    EXPECT_EQ(r->names, std::vector<std::string>{"ssim"});
    ASSERT_EQ(r->values.count("ssim"), 1u);
    ASSERT_EQ(r->values.at("ssim").size(), 6u);
  }
  for (size_t i = 0; i < 6; ++i) {
    // Six decimals in every format: the same printed value.
    const double want = std::round(library_score(int(i), int(i), 0) * 1e6) / 1e6;
    EXPECT_NEAR(xml.values.at("ssim")[i], want, 1e-12) << i;
    EXPECT_EQ(bits(json.values.at("ssim")[i]), bits(xml.values.at("ssim")[i])) << i;
    EXPECT_EQ(bits(csv.values.at("ssim")[i]), bits(xml.values.at("ssim")[i])) << i;
    EXPECT_EQ(bits(xml2.values.at("ssim")[i]), bits(xml.values.at("ssim")[i])) << i;
  }
  for (const char* k : {"min", "max", "mean", "harmonic_mean"}) {
    ASSERT_EQ(xml.pooled.at("ssim").count(k), 1u) << k;
    EXPECT_EQ(bits(xml.pooled.at("ssim").at(k)), bits(json.pooled.at("ssim").at(k))) << k;
  }
  // XML <params> carries the luma size.
  EXPECT_NE(report({}, "o3.xml").find("qualityWidth=\"23\" qualityHeight=\"17\""),
            std::string::npos);
}

TEST_F(Output, PrecisionMaxRoundTripsToLibraryScore) {
  const Report json = parse_json(report({"--json", "--precision", "max"}, "o.json"));
  const Report xml = parse_xml(report({"--xml", "--precision", "max"}, "o.xml"));
  const Report csv = parse_csv(report({"--csv", "--precision", "max"}, "o.csv"));
  const Report raster = parse_json(
      report({"--json", "--precision", "max", "--feature", "ssim=sum=raster"}, "r.json"));
  for (const Report* r : {&json, &xml, &csv, &raster}) ASSERT_EQ(r->values.at("ssim").size(), 6u);
  double mn = INFINITY, mx = -INFINITY, sum = 0;
  for (int i = 0; i < 6; ++i) {
    const double want = library_score(i, i, 0);
    EXPECT_EQ(bits(json.values.at("ssim")[size_t(i)]), bits(want)) << i;
    EXPECT_EQ(bits(xml.values.at("ssim")[size_t(i)]), bits(want)) << i;
    EXPECT_EQ(bits(csv.values.at("ssim")[size_t(i)]), bits(want)) << i;
    EXPECT_EQ(bits(raster.values.at("ssim")[size_t(i)]), bits(library_score(i, i, 0, true))) << i;
    mn = std::min(mn, want);
    mx = std::max(mx, want);
    sum += want;
  }
  EXPECT_EQ(bits(json.pooled.at("ssim").at("min")), bits(mn));
  EXPECT_EQ(bits(json.pooled.at("ssim").at("max")), bits(mx));
  EXPECT_EQ(bits(json.pooled.at("ssim").at("mean")), bits(sum / 6));
}

TEST_F(Output, Decimals) {
  const std::string csv = report({"--csv", "--precision", "3"}, "o.csv");
  EXPECT_TRUE(std::regex_search(csv, std::regex("\n0,0\\.[0-9]{3},\n"))) << csv;
  const std::string csv0 = report({"--csv", "--precision", "0"}, "o0.csv");
  EXPECT_TRUE(std::regex_search(csv0, std::regex("\n0,[01],\n"))) << csv0;
}

TEST_F(Output, TenBitInput) {
  const VideoFormat f10 = make_format(19, 14, ChromaFormat::k422, 10);
  const auto rf = make_frames(f10, 2, 0), df = make_frames(f10, 2, 7);
  const std::string r = write("r10.y4m", y4m_bytes(f10, rf));
  const std::string d = write("d10.y4m", y4m_bytes(f10, df));
  const RunResult run = run_cli({"-r", r, "-d", d, "--json", "--precision", "max", "--feature",
                                 "ssim=chroma=true", "-o", path("o.json")});
  ASSERT_EQ(run.status, 0) << describe(run);
  const Report json = parse_json(read_file(path("o.json")));
  ASSERT_EQ(json.frames.size(), 2u);
  const char* names[] = {"ssim", "ssim_cb", "ssim_cr"};
  for (int i = 0; i < 2; ++i) {
    const Picture a = to_picture(f10, rf[size_t(i)]), b = to_picture(f10, df[size_t(i)]);
    for (int p = 0; p < 3; ++p)
      EXPECT_EQ(bits(json.values.at(names[p])[size_t(i)]),
                bits(ssim::score_exact(a.plane(p), b.plane(p), 10)))
          << i << " " << names[p];
  }
}

TEST_F(Output, RawYuvMatchesY4m) {
  const std::string r = write("ref.yuv", raw_bytes(fmt_, ref_frames_));
  const std::string d = write("dist.yuv", raw_bytes(fmt_, dist_frames_));
  const std::string want = report({"--csv", "--precision", "max"}, "y.csv");
  const RunResult run = run_cli({"-r", r, "-d", d, "-w", "23", "-h", "17", "-p", "420", "-b", "8",
                                 "--csv", "--precision", "max", "-o", path("raw.csv")});
  ASSERT_EQ(run.status, 0) << describe(run);
  EXPECT_EQ(read_file(path("raw.csv")), want);
}

TEST_F(Output, Subsample) {
  const Report json =
      parse_json(report({"--json", "--precision", "max", "--subsample", "2"}, "o.json"));
  EXPECT_EQ(json.frames, (std::vector<int64_t>{0, 2, 4}));
  ASSERT_EQ(json.values.at("ssim").size(), 3u);
  for (int k = 0; k < 3; ++k)
    EXPECT_EQ(bits(json.values.at("ssim")[size_t(k)]), bits(library_score(2 * k, 2 * k, 0)));
  const Report csv = parse_csv(report({"--csv", "--subsample", "4"}, "o.csv"));
  EXPECT_EQ(csv.frames, (std::vector<int64_t>{0, 4}));
  const Report xml = parse_xml(report({"--subsample", "10"}, "o.xml"));
  EXPECT_EQ(xml.frames, (std::vector<int64_t>{0}));
}

TEST_F(Output, FrameSkipBothEqualsScoringTheTail) {
  const std::string r_tail = write("rt.y4m", y4m_bytes(fmt_, make_frames(fmt_, 5, 0, 1)));
  const std::string d_tail = write("dt.y4m", y4m_bytes(fmt_, make_frames(fmt_, 5, 1, 1)));
  const std::string skipped =
      report({"--csv", "--precision", "max", "--frame_skip_ref", "1", "--frame_skip_dist", "1"},
             "skip.csv");
  const RunResult run =
      run_cli({"-r", r_tail, "-d", d_tail, "--csv", "--precision", "max", "-o", path("tail.csv")});
  ASSERT_EQ(run.status, 0) << describe(run);
  EXPECT_EQ(skipped, read_file(path("tail.csv")));
  EXPECT_EQ(parse_csv(skipped).frames, (std::vector<int64_t>{0, 1, 2, 3, 4}));
}

TEST_F(Output, FrameSkipShiftsPairing) {
  // Skipping 2 reference frames pairs ref i+2 with dist i, over the 4 common frames;
  // the distorted input is then the longer one, which is refused unless --frame_cnt
  // says how many to score.
  const std::vector<std::string> args{
      "-r", ref_,          "-d", dist_, "--json",      "--precision", "max", "--frame_skip_ref",
      "2",  "--frame_cnt", "4",  "-o",  path("o.json")};
  const RunResult longer = run_cli({"-r", ref_, "-d", dist_, "--frame_skip_ref", "2"});
  EXPECT_EQ(longer.status, kExitFailure) << describe(longer);
  EXPECT_NE(longer.err.find("--frame_cnt 4"), std::string::npos) << describe(longer);
  const RunResult run = run_cli(args);
  ASSERT_EQ(run.status, 0) << describe(run);
  const Report json = parse_json(read_file(path("o.json")));
  EXPECT_EQ(json.frames, (std::vector<int64_t>{0, 1, 2, 3}));
  ASSERT_EQ(json.values.at("ssim").size(), 4u);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(bits(json.values.at("ssim")[size_t(i)]), bits(library_score(i + 2, i, 0))) << i;

  const Report d = parse_json(report(
      {"--json", "--precision", "max", "--frame_skip_dist", "1", "--frame_cnt", "3"}, "d.json"));
  ASSERT_EQ(d.values.at("ssim").size(), 3u);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(bits(d.values.at("ssim")[size_t(i)]), bits(library_score(i, i + 1, 0))) << i;
}

TEST_F(Output, SkipThenSubsample) {
  const Report json = parse_json(report({"--json", "--precision", "max", "--frame_skip_ref", "1",
                                         "--frame_skip_dist", "1", "--subsample", "2", "-q"},
                                        "o.json"));
  EXPECT_EQ(json.frames, (std::vector<int64_t>{0, 2, 4}));
  ASSERT_EQ(json.values.at("ssim").size(), 3u);
  for (int k = 0; k < 3; ++k)
    EXPECT_EQ(bits(json.values.at("ssim")[size_t(k)]),
              bits(library_score(2 * k + 1, 2 * k + 1, 0)));
}

TEST_F(Output, ThreadCountsGiveIdenticalBytes) {
  // Taller frames so that each thread gets its own band of rows.
  const VideoFormat tall = make_format(20, 45);
  const std::string r = write("tr.y4m", y4m_bytes(tall, make_frames(tall, 3, 0)));
  const std::string d = write("td.y4m", y4m_bytes(tall, make_frames(tall, 3, 2)));
  std::string first_csv, first_json;
  for (const char* t : {"1", "2", "3", "7"}) {
    SCOPED_TRACE(std::string("--threads ") + t);
    const std::string csv = path(std::string("t") + t + ".csv");
    const std::string json = path(std::string("t") + t + ".json");
    RunResult a = run_cli({"-r", r, "-d", d, "--threads", t, "--precision", "max", "--feature",
                           "ssim=chroma=true", "--csv", "-o", csv});
    ASSERT_EQ(a.status, 0) << describe(a);
    RunResult b = run_cli({"-r", r, "-d", d, "--threads", t, "--precision", "max", "--feature",
                           "ssim=chroma=true", "--json", "-o", json});
    ASSERT_EQ(b.status, 0) << describe(b);
    if (first_csv.empty()) {
      first_csv = read_file(csv);
      first_json = without_fps(read_file(json));
      continue;
    }
    EXPECT_EQ(read_file(csv), first_csv);
    EXPECT_EQ(without_fps(read_file(json)), first_json);
  }
  EXPECT_EQ(parse_csv(first_csv).frames.size(), 3u);
}

TEST_F(Output, EnableDbOfIdenticalInputsIsInfinite) {
  const RunResult run = run_cli(
      {"-r", ref_, "-d", ref_, "--json", "--feature", "ssim=enable_db=true", "-o", path("o.json")});
  ASSERT_EQ(run.status, 0) << describe(run);
  const std::string text = read_file(path("o.json"));
  const Report json = parse_json(text);
  ASSERT_EQ(json.frames.size(), 6u);
  for (size_t i = 0; i < 6; ++i)
    EXPECT_NE(
        std::find(json.json_nulls.begin(), json.json_nulls.end(), std::to_string(i) + "/ssim"),
        json.json_nulls.end())
        << "frame " << i << " is not null\n"
        << text;
  EXPECT_NE(text.find("\"ssim\": null"), std::string::npos) << text;

  const Report xml =
      parse_xml(report_for(ref_, ref_, {"--feature", "ssim=enable_db=true"}, "o.xml"));
  ASSERT_EQ(xml.values.at("ssim").size(), 6u);
  for (double v : xml.values.at("ssim")) EXPECT_TRUE(std::isinf(v) && v > 0) << v;
  const Report csv =
      parse_csv(report_for(ref_, ref_, {"--csv", "--feature", "ssim=enable_db=true"}, "o.csv"));
  ASSERT_EQ(csv.values.at("ssim").size(), 6u);
  for (double v : csv.values.at("ssim")) EXPECT_TRUE(std::isinf(v) && v > 0) << v;

  // The summary line prints the pooled mean.
  const RunResult s = run_cli({"-r", ref_, "-d", ref_, "--feature", "ssim=enable_db=true"});
  EXPECT_EQ(s.status, 0) << describe(s);
  EXPECT_EQ(s.out, "ssim: inf\n");
}

TEST_F(Output, ClipDbOfIdenticalInputsIsTheLimit) {
  const Report json = parse_json(report_for(
      ref_, ref_,
      {"--json", "--precision", "max", "--feature", "ssim=enable_db=true:clip_db=true:chroma=true"},
      "o.json"));
  EXPECT_TRUE(json.json_nulls.empty());
  // ceil(10*log10(M*M/(0.5/(W*H)))) per plane: 23x17 luma, 12x9 chroma.
  const auto limit = [](double w, double h) {
    return std::ceil(10.0 * std::log10(255.0 * 255.0 / (0.5 / (w * h))));
  };
  EXPECT_EQ(limit(23, 17), 78.0);
  EXPECT_EQ(limit(12, 9), 72.0);
  ASSERT_EQ(json.values.at("ssim").size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(json.values.at("ssim")[i], limit(23, 17));
    EXPECT_EQ(json.values.at("ssim_cb")[i], limit(12, 9));
    EXPECT_EQ(json.values.at("ssim_cr")[i], limit(12, 9));
  }
}

TEST_F(Output, EnableDbOfDistortedInput) {
  const Report json = parse_json(report(
      {"--json", "--precision", "max", "--feature", "ssim=enable_db=true:clip_db=true"}, "o.json"));
  ASSERT_EQ(json.values.at("ssim").size(), 6u);
  for (int i = 0; i < 6; ++i) {
    const double s = library_score(i, i, 0);
    EXPECT_EQ(bits(json.values.at("ssim")[size_t(i)]), bits(ssim::to_db(s, 78.0))) << i;
    EXPECT_EQ(bits(json.values.at("ssim")[size_t(i)]), bits(-10.0 * std::log10(1.0 - s))) << i;
  }
}

TEST_F(Output, ChromaAddsCbAndCr) {
  const std::string text =
      report({"--csv", "--precision", "max", "--feature", "ssim=chroma=true"}, "o.csv");
  EXPECT_TRUE(text.starts_with("Frame,ssim,ssim_cb,ssim_cr,\n")) << text;
  const Report csv = parse_csv(text);
  EXPECT_EQ(csv.names, (std::vector<std::string>{"ssim", "ssim_cb", "ssim_cr"}));
  const char* names[] = {"ssim", "ssim_cb", "ssim_cr"};
  for (int p = 0; p < 3; ++p) {
    ASSERT_EQ(csv.values.at(names[p]).size(), 6u);
    for (int i = 0; i < 6; ++i)
      EXPECT_EQ(bits(csv.values.at(names[p])[size_t(i)]), bits(library_score(i, i, p)))
          << names[p] << " " << i;
  }
  const Report json = parse_json(report({"--json", "--feature", "ssim=chroma=true"}, "o.json"));
  EXPECT_EQ(json.names, (std::vector<std::string>{"ssim", "ssim_cb", "ssim_cr"}));
  EXPECT_EQ(json.pooled.size(), 3u);
  const Report off = parse_json(report({"--json", "--feature", "ssim=chroma=false"}, "off.json"));
  EXPECT_EQ(off.names, (std::vector<std::string>{"ssim"}));
}

TEST_F(Output, ReportToStandardOutput) {
  const std::string want = report({"--csv", "--precision", "max"}, "o.csv");
  const RunResult r = run_cli({"-r", ref_, "-d", dist_, "--csv", "--precision", "max", "-o", "-"});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.out, want);
  EXPECT_FALSE(fs::exists("-")) << "a file named - in the working directory";
}

// -o /dev/stdout with standard output redirected to a file (a log): the report
// is appended to what is already there, not written over it.
TEST_F(Output, DevStdoutRedirectedToAFileKeepsWhatIsThere) {
  const std::string want = report({"--csv", "--precision", "max"}, "o.csv");
  const std::string log = path("run.log");
  const RunResult r = run_shell(
      "echo first line > \"$1\"; \"$2\" -r \"$3\" -d \"$4\" --feature ssim -n --csv --precision "
      "max "
      "-o /dev/stdout >> \"$1\"",
      {log, EXACTVQ_CLI_PATH, ref_, dist_});
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(read_file(log), "first line\n" + want);
}

TEST_F(Output, OverwritesExistingReport) {
  write("o.xml", "old contents that are much longer than nothing at all\n");
  const Report xml = parse_xml(report({}, "o.xml"));
  EXPECT_EQ(xml.frames.size(), 6u);
  EXPECT_EQ(list_dir(dir_).count("o.xml"), 1u);
  // No temporary file is left beside the report.
  for (const auto& name : list_dir(dir_)) EXPECT_FALSE(name.starts_with(".o.xml")) << name;
}

}  // namespace
}  // namespace exactvq::clitest
