// Command-line usage: errors exit 1 with a message and a hint; --help and --version
// exit 0; standard input; inputs of different lengths refused.
#include <filesystem>
#include <regex>

#include "cli/cli_fixture.h"

namespace exactvq::clitest {
namespace {

class Usage : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    fmt_ = make_format(16, 12);
    ref_ = write_y4m("ref.y4m", fmt_, 3, 0);
    dist_ = write_y4m("dist.y4m", fmt_, 3, 1);
  }

  std::vector<std::string> base(std::vector<std::string> extra = {}) const {
    std::vector<std::string> a{"-r", ref_, "-d", dist_};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  }

  VideoFormat fmt_;
  std::string ref_, dist_;
};

TEST_F(Usage, Version) {
  const RunResult r = run_cli({"--version"});
  EXPECT_EQ(r.status, 0) << describe(r);
  EXPECT_TRUE(std::regex_match(r.out, std::regex("exactvq [0-9]+\\.[0-9]+\\.[0-9]+.*\n")))
      << describe(r);
  EXPECT_EQ(r.err, "");
  const RunResult v = run_cli({"-v"});
  EXPECT_EQ(v.status, 0) << describe(v);
  EXPECT_EQ(v.out, r.out);
}

TEST_F(Usage, Help) {
  const RunResult r = run_cli({"--help"});
  EXPECT_EQ(r.status, 0) << describe(r);
  for (const char* needle : {"--feature",
                             "-r,--reference",
                             "-d,--distorted",
                             "--json",
                             "--csv",
                             "--precision",
                             "--threads",
                             "--subsample",
                             "--sub",
                             "--cpumask",
                             "--gpumask",
                             "--aom_ctc",
                             "--nflx_ctc",
                             "-n,--no_prediction",
                             "-q,--quiet",
                             "-v,--version",
                             "--frame_skip_ref",
                             "--frame_skip_dist",
                             "-w,--width",
                             "-h,--height",
                             "-p,--pixel_format",
                             "-b,--bitdepth",
                             "-m,--model",
                             "-o,--output",
                             "--xml",
                             "--frame_cnt"})
    EXPECT_NE(r.out.find(needle), std::string::npos) << needle << "\n" << describe(r);
  EXPECT_EQ(r.err, "");
}

TEST_F(Usage, BadHwdec) {
  expect_refused(base({"--hwdec", "gpu"}), kExitUsage, {"--hwdec 'gpu'", "auto, cuda or none"});
}

// Y4M inputs need no decoding: --hwdec cuda has nothing to do.
TEST_F(Usage, HwdecOnY4mInputs) {
  const RunResult r = run_cli(base({"--hwdec", "cuda", "--feature", "psnr"}));
  EXPECT_EQ(r.status, 0) << describe(r);
}

// libvmaf's 0 for --frame_cnt, --threads and --subsample: no limit, one thread, every frame.
TEST_F(Usage, ZeroMeansLibvmafsDefault) {
  const RunResult all = run_cli(base({"--csv", "--precision", "max", "-o", path("a.csv")}));
  ASSERT_EQ(all.status, 0) << describe(all);
  const RunResult zero = run_cli(base({"--frame_cnt", "0", "--threads", "0", "--subsample", "0",
                                       "--csv", "--precision", "max", "-o", path("b.csv")}));
  ASSERT_EQ(zero.status, 0) << describe(zero);
  EXPECT_EQ(read_file(path("b.csv")), read_file(path("a.csv")));
}

// getopt's rule: the last of a repeated option wins (libvmaf's strtoul in base 0).
TEST_F(Usage, RepeatedOptionTakesTheLast) {
  const RunResult one = run_cli(base({"--frame_cnt", "1", "--csv", "-o", path("a.csv")}));
  ASSERT_EQ(one.status, 0) << describe(one);
  const RunResult twice =
      run_cli(base({"--frame_cnt", "3", "--frame_cnt", "0x1", "--csv", "-o", path("b.csv")}));
  ASSERT_EQ(twice.status, 0) << describe(twice);
  EXPECT_EQ(parse_csv(read_file(path("b.csv"))).frames.size(), 1u);
}

TEST_F(Usage, CpuAndGpuMasksAcceptedAndChangeNothing) {
  const RunResult want = run_cli(base({"--csv", "--precision", "max", "-o", path("a.csv")}));
  ASSERT_EQ(want.status, 0) << describe(want);
  const RunResult got = run_cli(base({"--cpumask", "0xffffffff", "--gpumask", "0", "--csv",
                                      "--precision", "max", "-o", path("b.csv")}));
  ASSERT_EQ(got.status, 0) << describe(got);
  EXPECT_EQ(read_file(path("b.csv")), read_file(path("a.csv")));
  expect_refused(base({"--cpumask", "avx"}), kExitUsage, {"--cpumask avx"});
}

TEST_F(Usage, UnknownPresetVersion) {
  expect_refused(base({"--aom_ctc", "v8.0"}), kExitUsage, {"--aom_ctc v8.0", "v7.0"});
  expect_refused(base({"--aom_ctc", "proposed"}), kExitUsage, {"deprecated"});
  expect_refused(base({"--nflx_ctc", "v2.0"}), kExitUsage, {"--nflx_ctc v2.0", "v1.0"});
}

// The features that preset needs and this build lacks are named.
TEST_F(Usage, ModelsNamedAlike) {
  expect_refused(base({"-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_v0.6.1neg"}), kExitUsage,
                 {"name"});
}

TEST_F(Usage, NoArguments) {
  expect_refused({}, kExitUsage, {"-r"});
  expect_refused({"-r", ref_}, kExitUsage, {"-d"});
}

TEST_F(Usage, UnknownFeature) {
  expect_refused(base({"--feature", "foo"}), kExitFailure, {"'foo'", "ssim"});
}

TEST_F(Usage, UnknownSsimOption) {
  expect_refused(base({"--feature", "ssim=bogus=1"}), kExitFailure, {"unknown option 'bogus'"});
}

TEST_F(Usage, BadSsimOptionValues) {
  expect_refused(base({"--feature", "ssim=sum=fast"}), kExitFailure, {"sum=fast"});
  expect_refused(base({"--feature", "ssim=enable_db=maybe"}), kExitFailure, {"enable_db=maybe"});
  expect_refused(base({"--feature", "ssim=clip_db=2"}), kExitFailure, {"clip_db=2"});
  // Malformed --feature strings: refused as libvmaf's parser refuses them.
  expect_refused(base({"--feature", "ssim=chroma"}), kExitUsage, {"chroma", "key=value"});
  expect_refused(base({"--feature", "=sum=exact"}), kExitUsage, {"missing feature name"});
}

TEST_F(Usage, FeatureTwice) {
  expect_refused(base({"--feature", "ssim", "--feature", "ssim=sum=raster"}), kExitFailure,
                 {"'ssim'", "twice"});
}

TEST_F(Usage, ChromaOnMonochrome) {
  const VideoFormat mono = make_format(16, 12, ChromaFormat::kMono);
  const std::string r = write_y4m("mr.y4m", mono, 2, 0);
  const std::string d = write_y4m("md.y4m", mono, 2, 1);
  expect_refused({"-r", r, "-d", d, "--feature", "ssim=chroma=true"}, kExitFailure, {"monochrome"});
}

TEST_F(Usage, BadPrecision) {
  expect_refused(base({"--precision", "18"}), kExitUsage, {"--precision 18"});
  expect_refused(base({"--precision", "-1"}), kExitUsage, {"--precision -1"});
  expect_refused(base({"--precision", "six"}), kExitUsage, {"--precision six"});
  expect_refused(base({"--precision", "Max"}), kExitUsage, {"--precision Max"});
}

TEST_F(Usage, BadThreads) {
  expect_refused(base({"--threads", "-3"}), kExitUsage, {"--threads -3"});
  expect_refused(base({"--threads", "two"}), kExitUsage, {"--threads two"});
}

TEST_F(Usage, BadCounts) {
  expect_refused(base({"--frame_cnt", "-1"}), kExitUsage, {"--frame_cnt -1"});
  expect_refused(base({"--frame_skip_ref", "x"}), kExitUsage, {"--frame_skip_ref x"});
}

TEST_F(Usage, BadBackend) {
  expect_refused(base({"--backend", "gpu"}), kExitUsage, {"--backend gpu"});
}

TEST_F(Usage, UnknownOption) {
  expect_refused(base({"--bogus"}), kExitUsage, {"--bogus"});
  expect_refused(base({"--frame-cnt", "2"}), kExitUsage, {"--frame-cnt"});
}

// As libvmaf: of --xml, --json, --csv and --sub, the last given.
TEST_F(Usage, TwoOutputFormatsTakeTheLast) {
  const RunResult r = run_cli(base({"--json", "--csv", "-o", path("o.out")}));
  ASSERT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(parse_csv(read_file(path("o.out"))).frames.size(), 3u);
  const RunResult s = run_cli(base({"--csv", "--sub", "-o", path("o.sub")}));
  ASSERT_EQ(s.status, 0) << describe(s);
  EXPECT_TRUE(read_file(path("o.sub")).starts_with("{0}{1}frame: 0|ssim: "))
      << read_file(path("o.sub"));
}

TEST_F(Usage, BothInputsFromStdin) {
  expect_refused({"-r", "-", "-d", "-"}, kExitFailure, {"standard input"}, stdin_from(ref_));
}

TEST_F(Usage, NoPredictionAccepted) {
  const RunResult r = run_cli(base({"-n"}));
  EXPECT_EQ(r.status, 0) << describe(r);
}

// --- Standard input ---------------------------------------------------------------

TEST_F(Usage, ReferenceFromStdinFile) {
  const RunResult want = run_cli(base({"--csv", "--precision", "max", "-o", path("a.csv")}));
  ASSERT_EQ(want.status, 0) << describe(want);
  const RunResult got =
      run_cli({"-r", "-", "-d", dist_, "--csv", "--precision", "max", "-o", path("b.csv")},
              stdin_from(ref_));
  ASSERT_EQ(got.status, 0) << describe(got);
  EXPECT_EQ(read_file(path("b.csv")), read_file(path("a.csv")));
  EXPECT_EQ(parse_csv(read_file(path("b.csv"))).frames.size(), 3u);
}

TEST_F(Usage, DistortedFromPipe) {
  const RunResult want = run_cli(base({"--csv", "--precision", "max", "-o", path("a.csv")}));
  ASSERT_EQ(want.status, 0) << describe(want);
  const RunResult got = run_shell(
      "cat \"$1\" | \"$2\" -r \"$3\" -d - --feature ssim -n --csv --precision max -o \"$4\"",
      {dist_, EXACTVQ_CLI_PATH, ref_, path("b.csv")});
  ASSERT_EQ(got.status, 0) << describe(got);
  EXPECT_EQ(read_file(path("b.csv")), read_file(path("a.csv")));
}

TEST_F(Usage, TruncatedPipeNamesStandardInput) {
  std::string bytes = read_file(dist_);
  bytes.resize(bytes.size() - 5);
  const std::string cut = write("cut.bin", bytes);
  const RunResult r = run_shell("cat \"$1\" | \"$2\" -r \"$3\" -d - --feature ssim -n -o \"$4\"",
                                {cut, EXACTVQ_CLI_PATH, ref_, path("o.xml")});
  EXPECT_EQ(r.status, kExitPicture) << describe(r);
  EXPECT_NE(r.err.find("standard input: truncated frame 2"), std::string::npos) << describe(r);
  EXPECT_FALSE(fs::exists(path("o.xml")));
}

TEST_F(Usage, RawYuvFromStdin) {
  const std::string raw = write("ref.yuv", raw_bytes(fmt_, make_frames(fmt_, 3, 0)));
  const RunResult want = run_cli(base({"--csv", "--precision", "max", "-o", path("a.csv")}));
  ASSERT_EQ(want.status, 0) << describe(want);
  const RunResult got = run_cli({"-r", "-", "-d", dist_, "-w", "16", "-h", "12", "-p", "420", "-b",
                                 "8", "--csv", "--precision", "max", "-o", path("b.csv")},
                                stdin_from(raw));
  ASSERT_EQ(got.status, 0) << describe(got);
  EXPECT_EQ(read_file(path("b.csv")), read_file(path("a.csv")));
}

// --- Inputs of different lengths -------------------------------------------------

// libvmaf scores the frames both share and exits 0; the command line refuses a partial
// result (255, both files and the frame named, no report) and says how to score them.
TEST_F(Usage, ShorterDistortedIsRefused) {
  const std::string ref = write_y4m("long.y4m", fmt_, 5, 0);
  const std::string dist = write_y4m("short.y4m", fmt_, 2, 1);
  expect_refused({"-r", ref, "-d", dist, "--json"}, kExitFailure,
                 {ref, dist, "after 2 frames", "--frame_cnt 2"});
  expect_refused({"-r", ref, "-d", dist, "-q", "--json"}, kExitFailure, {"ended before"});
  // What the message offers: the frames they share.
  const RunResult shared =
      run_cli({"-r", ref, "-d", dist, "--frame_cnt", "2", "--json", "-o", path("o.json")});
  EXPECT_EQ(shared.status, 0) << describe(shared);
  EXPECT_EQ(parse_json(read_file(path("o.json"))).frames, (std::vector<int64_t>{0, 1}));
}

TEST_F(Usage, ShorterReferenceIsRefused) {
  const std::string ref = write_y4m("short.y4m", fmt_, 1, 0);
  const std::string dist = write_y4m("long.y4m", fmt_, 4, 1);
  expect_refused({"-r", ref, "-d", dist}, kExitFailure, {ref, dist, "after 1 frame:"});
}

// One thread reads the two inputs in turn; more threads read them at once. The
// outcome must not tell: same pairs, same first error.
TEST_F(Usage, ReadingOutcomeIsTheSameAtAnyThreadCount) {
  const std::string long_ref = write_y4m("long.y4m", fmt_, 7, 0);
  const std::string short_dist = write_y4m("short.y4m", fmt_, 3, 1);
  const std::string cut = write_y4m("cut.y4m", fmt_, 5, 1);
  std::filesystem::resize_file(cut, std::filesystem::file_size(cut) - 20);  // inside frame 4
  const std::vector<std::vector<std::string>> cases = {
      {"-r", long_ref, "-d", short_dist},
      {"-r", short_dist, "-d", long_ref},
      {"-r", long_ref, "-d", short_dist, "--subsample", "2"},
      {"-r", long_ref, "-d", short_dist, "--frame_cnt", "5"},
      {"-r", long_ref, "-d", cut},
      {"-r", cut, "-d", long_ref, "--frame_skip_dist", "1"},
      {"-r", long_ref, "-d", long_ref, "--subsample", "3", "--frame_cnt", "5"},
  };
  for (const auto& args : cases) {
    std::string first_err, first_csv;
    int first_status = -1;
    for (const char* threads : {"1", "2", "3"}) {
      std::vector<std::string> a = args;
      a.insert(a.end(), {"--threads", threads, "--csv", "-o", path("t.csv")});
      std::filesystem::remove(path("t.csv"));
      const RunResult r = run_cli(a);
      const std::string csv =
          std::filesystem::exists(path("t.csv")) ? read_file(path("t.csv")) : "(none)";
      if (first_status < 0) {
        first_status = r.status;
        first_err = r.err;
        first_csv = csv;
        continue;
      }
      EXPECT_EQ(r.status, first_status) << "threads " << threads << ": " << describe(r);
      EXPECT_EQ(r.err, first_err) << "threads " << threads << ": " << describe(r);
      EXPECT_EQ(csv, first_csv) << "threads " << threads << ": " << describe(r);
    }
  }
}

TEST_F(Usage, EqualLengthsNoWarning) {
  const RunResult r = run_cli(base());
  EXPECT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.err, "") << describe(r);
}

TEST_F(Usage, FrameCountWithinInput) {
  const RunResult r = run_cli(base({"--frame_cnt", "2", "--csv", "-o", path("o.csv")}));
  EXPECT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(r.err, "") << describe(r);
  EXPECT_EQ(parse_csv(read_file(path("o.csv"))).frames, (std::vector<int64_t>{0, 1}));
}

}  // namespace
}  // namespace exactvq::clitest

namespace exactvq::clitest {
namespace {

// The helper itself: a process that hangs is killed and reported, not waited for.
TEST(Runner, TimeoutKillsHangingProcess) {
  const RunResult r = run_shell("sleep 30 & sleep 30", {}, with_timeout(0.3));
  EXPECT_TRUE(r.timed_out);
  EXPECT_NE(r.status, 0);
  EXPECT_LT(r.seconds, 5.0);
}

TEST(Runner, CapturesStatusAndStreams) {
  const RunResult r = run_shell("printf out; printf err >&2; exit 3");
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.out, "out");
  EXPECT_EQ(r.err, "err");
}

}  // namespace
}  // namespace exactvq::clitest
