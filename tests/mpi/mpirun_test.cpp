// exactvq-mpi under `mpirun -n 2` and `-n 3` on this machine: the same output files,
// byte for byte (the fps timing field aside), the same summary, warnings and
// errors as exactvq with the same options; failures end every rank with a non-zero
// exit status and no output file, and nothing hangs (each run is killed after 90 s).
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>

#include "cli/cli_fixture.h"

namespace exactvq::clitest {
namespace {

// Open MPI 4 in a container, as root (CI): allowed explicitly; shared memory and
// loopback only, without the cross-memory-attach copy that containers often forbid.
class OpenMpiEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    setenv("OMPI_MCA_btl", "self,vader", 1);
    setenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none", 1);
    setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 1);
  }
};
const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new OpenMpiEnvironment);

std::string without_fps(const std::string& text) {
  return std::regex_replace(text, std::regex("fps[\"=: ]*[0-9.]+\"?"), "fps");
}

// exactvq-mpi's messages name it; exactvq's name exactvq.
std::string as_exactvq(const std::string& err) {
  return std::regex_replace(err, std::regex("exactvq-mpi"), "exactvq");
}

class Mpirun : public CliTest {
 protected:
  RunResult mpi(int ranks, const std::vector<std::string>& args, RunIo io = {}) {
    // Under tools/sanitize.sh, Open MPI's own allocations kept until exit would fail
    // every rank at exit (LeakSanitizer); the ranks run without leak checks. Our code
    // in them (range_score, wire) is leak-checked in mpi_share_tests.
    const char* asan = std::getenv("ASAN_OPTIONS");
    const std::string ranks_asan = std::string("ASAN_OPTIONS=") +
                                   (asan && *asan ? std::string(asan) + ":" : "") +
                                   "detect_leaks=0";
    std::vector<std::string> argv{
        EXACTVQ_MPIRUN,        "--oversubscribe",   "-x", ranks_asan, "-n",
        std::to_string(ranks), EXACTVQ_MPI_CLI_PATH};
    const std::vector<std::string> given = with_ssim_default(args);
    argv.insert(argv.end(), given.begin(), given.end());
    io.timeout_s = 90;
    return run_program(argv, io);
  }

  // exactvq, then exactvq-mpi at each rank count, with `args` and -o FILE (unless
  // `to_file` is false: then stdout is compared); everything must match.
  void expect_identical(const std::vector<std::string>& args, const std::string& ext,
                        std::vector<int> rank_counts = {2, 3}, bool to_file = true,
                        const RunIo& io = {}) {
    std::vector<std::string> a = args;
    const std::string one = path("one." + ext);
    if (to_file) {
      a.push_back("-o");
      a.push_back(one);
    }
    RunIo cli_io = io;
    cli_io.timeout_s = 90;
    const RunResult want = run_cli(a, cli_io);
    ASSERT_EQ(want.status, 0) << describe(want);
    for (const int n : rank_counts) {
      SCOPED_TRACE("mpirun -n " + std::to_string(n));
      std::vector<std::string> b = args;
      const std::string out = path("mpi" + std::to_string(n) + "." + ext);
      if (to_file) {
        b.push_back("-o");
        b.push_back(out);
      }
      const RunResult got = mpi(n, b, io);
      ASSERT_EQ(got.status, 0) << describe(got);
      EXPECT_EQ(as_exactvq(got.err), want.err);
      EXPECT_EQ(got.out, want.out);
      if (to_file) {
        const std::string expected = read_file(one);
        ASSERT_FALSE(expected.empty());
        EXPECT_EQ(without_fps(read_file(out)), without_fps(expected));
      }
    }
  }

  // Both refuse: exactvq with `status` and a message; exactvq-mpi at each rank count
  // with a non-zero status, the same message, no output file and no hang.
  void expect_refused_alike(const std::vector<std::string>& args, int status,
                            const std::string& needle) {
    const fs::path out_dir = dir_ / "out";
    fs::create_directories(out_dir);
    std::vector<std::string> a = args;
    a.push_back("-o");
    a.push_back((out_dir / "report.json").string());
    const RunResult want = run_cli(a);
    ASSERT_EQ(want.status, status) << describe(want);
    ASSERT_NE(want.err.find(needle), std::string::npos) << describe(want);
    const std::string first_line = want.err.substr(0, want.err.find('\n') + 1);
    for (const int n : {2, 3}) {
      SCOPED_TRACE("mpirun -n " + std::to_string(n));
      const RunResult got = mpi(n, a);
      EXPECT_FALSE(got.timed_out) << describe(got);
      EXPECT_EQ(got.status, status) << describe(got);
      // exactvq-mpi's line (after a note when rank 0 reads alone); mpirun then adds
      // its own note about the exit status.
      const std::string err = as_exactvq(got.err);
      EXPECT_TRUE(err.starts_with(first_line) || err.find("\n" + first_line) != std::string::npos)
          << describe(got);
      // The usage hint where exactvq gives it only (not with float_ms_ssim's 1).
      EXPECT_EQ(err.find("Try '") != std::string::npos, want.err.find("Try '") != std::string::npos)
          << describe(got);
      EXPECT_EQ(list_dir(out_dir), std::set<std::string>{}) << describe(got);
    }
  }
};

TEST_F(Mpirun, SamplePairInEveryFormat) {
  const std::string ref = EXACTVQ_SAMPLES_DIR "/ref.y4m";
  const std::string dist = EXACTVQ_SAMPLES_DIR "/dist.y4m";
  expect_identical({"-r", ref, "-d", dist, "--feature", "ssim", "--feature", "psnr", "--json"},
                   "json", {1, 2, 3});
  expect_identical({"-r", ref, "-d", dist, "--feature", "ssim", "--feature", "psnr"}, "xml");
  expect_identical({"-r", ref, "-d", dist, "--feature", "ssim", "--csv"}, "csv");
  // The summary on standard output, and the chart.
  expect_identical(
      {"-r", ref, "-d", dist, "--feature", "ssim", "--feature", "psnr=enable_apsnr=true"}, "txt",
      {3}, /*to_file=*/false);
  expect_identical({"-r", ref, "-d", dist, "--plot", path("plot.svg"), "-q"}, "svg", {3},
                   /*to_file=*/false);
}

// VMAF, whose motion reads the frame before each rank's range (and the five-frame
// window two frames): the ranks give one process's bytes.
TEST_F(Mpirun, VmafRangesReadTheFramesBeforeThem) {
  const VideoFormat f = make_format(48, 40, ChromaFormat::k420, 10);
  const auto ref = write_y4m("ref.y4m", f, 7, 0);
  const auto dist = write_y4m("dist.y4m", f, 7, 1);
  expect_identical(
      {"-r", ref, "-d", dist, "--model", "version=vmaf_v0.6.1", "--json", "--precision", "max"},
      "json", {2, 3});
  expect_identical({"-r", ref, "-d", dist, "--feature",
                    "motion=motion_five_frame_window=true:motion_moving_average=true", "--csv",
                    "--precision", "max"},
                   "csv", {3});
}

// speed_temporal, which reads the frame pair before each rank's range (both
// pictures): the ranks give one process's bytes.
TEST_F(Mpirun, SpeedTemporalRangesReadThePairBeforeThem) {
  const VideoFormat f = make_format(176, 160, ChromaFormat::k420, 8);
  const auto ref = write_y4m("ref.y4m", f, 7, 0);
  const auto dist = write_y4m("dist.y4m", f, 7, 1);
  expect_identical({"-r", ref, "-d", dist, "--feature", "speed_temporal", "--feature",
                    "speed_temporal=speed_use_ref_diff=true", "--feature", "speed_chroma", "--json",
                    "--precision", "max"},
                   "json", {2, 3});
}

TEST_F(Mpirun, GeneratedEightAndTenBitPairs) {
  const VideoFormat f8 = make_format(37, 23);
  const auto ref8 = write_y4m("ref8.y4m", f8, 7, 0);
  const auto dist8 = write_y4m("dist8.y4m", f8, 7, 1);
  expect_identical({"-r", ref8, "-d", dist8, "--feature", "ssim", "--feature",
                    "psnr=enable_apsnr=true:enable_mse=true", "--json", "--precision", "max"},
                   "json");
  const VideoFormat f10 = make_format(30, 18, ChromaFormat::k420, 10);
  const auto ref10 = write_y4m("ref10.y4m", f10, 5, 0);
  const auto dist10 = write_y4m("dist10.y4m", f10, 5, 2);
  expect_identical({"-r", ref10, "-d", dist10, "--feature", "ssim=chroma=true:enable_db=true",
                    "--feature", "psnr=enable_apsnr=true", "--xml", "--precision", "max"},
                   "xml");
  // Raw 10-bit YUV, and ssim's raster sum.
  const auto raw_ref = write("ref.yuv", raw_bytes(f10, make_frames(f10, 5, 0)));
  const auto raw_dist = write("dist.yuv", raw_bytes(f10, make_frames(f10, 5, 3)));
  expect_identical({"-r", raw_ref, "-d", raw_dist, "-w", "30", "-h", "18", "-p", "420", "-b", "10",
                    "--feature", "ssim=sum=raster", "--csv", "--precision", "max"},
                   "csv");
}

TEST_F(Mpirun, MoreRanksThanFrames) {
  const VideoFormat f = make_format(24, 16);
  const auto ref = write_y4m("ref.y4m", f, 2, 0);
  const auto dist = write_y4m("dist.y4m", f, 2, 1);
  expect_identical({"-r", ref, "-d", dist, "--feature", "psnr=enable_apsnr=true", "--json"}, "json",
                   {3, 5});
}

TEST_F(Mpirun, FrameSelection) {
  const VideoFormat f = make_format(24, 16, ChromaFormat::k444, 10);
  const auto ref = write_y4m("ref.y4m", f, 11, 0);
  const auto dist = write_y4m("dist.y4m", f, 11, 1);
  const std::vector<std::string> base{
      "-r",        ref,           "-d",        dist,
      "--feature", "ssim",        "--feature", "psnr=enable_apsnr=true",
      "--json",    "--precision", "max"};
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--frame_cnt", "5"},
        std::vector<std::string>{"--frame_skip_ref", "2", "--frame_skip_dist", "2"},
        std::vector<std::string>{"--subsample", "3"},
        std::vector<std::string>{"--frame_cnt", "7", "--frame_skip_ref", "3", "--subsample",
                                 "2"}}) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    SCOPED_TRACE(extra[0] + " " + extra[1]);
    expect_identical(a, "json");
  }
}

// Inputs of different lengths: refused as exactvq refuses them (the last rank meets the end).
TEST_F(Mpirun, ShorterDistortedRefusedAsExactvq) {
  const VideoFormat f = make_format(24, 16);
  const auto ref = write_y4m("ref.y4m", f, 8, 0);
  const auto dist = write_y4m("dist.y4m", f, 5, 1);
  expect_refused_alike({"-r", ref, "-d", dist, "--json"}, kExitFailure, "after 5 frames");
  expect_identical({"-r", ref, "-d", dist, "--frame_cnt", "5", "--json"}, "json");
}

TEST_F(Mpirun, StandardInputIsReadByRankZero) {
  const VideoFormat f = make_format(24, 16);
  const auto ref = write_y4m("ref.y4m", f, 4, 0);
  const auto dist = write_y4m("dist.y4m", f, 4, 1);
  expect_identical({"-r", ref, "-d", "-", "--json", "-q"}, "json", {2}, true, stdin_from(dist));
}

// --batch: ranks take whole pairs; every pair's file, the summary, the per-pair lines
// (exactvq with one job prints them in list order, as exactvq-mpi always does) and
// the exit status are exactvq's.
TEST_F(Mpirun, BatchRanksTakeWholePairs) {
  const VideoFormat f = make_format(24, 16, ChromaFormat::k420, 10);
  const auto ref = write_y4m("ref.y4m", f, 6, 0);
  const auto dist = write_y4m("dist.y4m", f, 6, 1);
  const auto dist2 = write_y4m("dist2.y4m", f, 4, 2);
  const std::string list = "ref,dist,output,options\n" + ref + "," + dist +
                           ",p1.json,--feature ssim\n" + dist + "," + ref +
                           ",p2.xml,--feature psnr=enable_apsnr=true\n" + ref + "," +
                           path("missing.y4m") + ",p3.json,--feature ssim\n" + ref + "," + dist2 +
                           ",p4.csv,--subsample 2 --frame_cnt 4 --feature ssim\n" + ref + "," +
                           dist + ",p5.json,--frame_cnt 3 --feature ssim=sum=raster\n";
  fs::create_directories(dir_ / "one");
  const auto one_list = write("one/list.csv", list);
  const RunResult want =
      run_cli({"--batch", one_list, "--batch-jobs", "1", "--batch-summary", path("one/sum.csv")});
  ASSERT_EQ(want.status, kExitFailure) << describe(want);
  const std::string one_dir = (dir_ / "one").string();
  for (const int n : {2, 3}) {
    SCOPED_TRACE("mpirun -n " + std::to_string(n));
    const std::string name = "mpi" + std::to_string(n);
    fs::create_directories(dir_ / name);
    const auto mpi_list = write(name + "/list.csv", list);
    const RunResult got = mpi(n, {"--batch", mpi_list, "--batch-summary", path(name + "/sum.csv")});
    EXPECT_EQ(got.status, kExitFailure) << describe(got);
    const std::string mpi_dir = (dir_ / name).string();
    const std::string expected_err = std::regex_replace(want.err, std::regex(one_dir), mpi_dir);
    EXPECT_TRUE(as_exactvq(got.err).starts_with(expected_err)) << describe(got);
    EXPECT_EQ(read_file(path(name + "/sum.csv")),
              std::regex_replace(read_file(path("one/sum.csv")), std::regex(one_dir), mpi_dir));
    for (const char* file : {"p1.json", "p2.xml", "p4.csv", "p5.json"}) {
      const std::string expected = read_file(dir_ / "one" / file);
      ASSERT_FALSE(expected.empty()) << file;
      EXPECT_EQ(without_fps(read_file(dir_ / name / file)), without_fps(expected)) << file;
    }
    EXPECT_FALSE(fs::exists(dir_ / name / "p3.json"));
  }
}

TEST_F(Mpirun, ErrorsEndEveryRankWithoutOutput) {
  const VideoFormat f = make_format(24, 16, ChromaFormat::k420, 10);
  const auto ref = write_y4m("ref.y4m", f, 7, 0);
  const auto dist = write_y4m("dist.y4m", f, 7, 1);
  // Missing on every rank.
  expect_refused_alike({"-r", ref, "-d", path("missing.y4m")}, kExitFailure, "missing.y4m");
  // Truncated Y4M (its frame count is unknown, so rank 0 reads it) and raw YUV (whose
  // frame count counts the partial frame: the last rank meets it).
  const std::string bytes = read_file(dist);
  const auto cut = write("cut.y4m", bytes.substr(0, bytes.size() - 50));
  expect_refused_alike({"-r", ref, "-d", cut}, kExitPicture, "truncated frame 6");
  const std::string raw = raw_bytes(f, make_frames(f, 7, 1));
  const auto ref_raw = write("ref.yuv", raw_bytes(f, make_frames(f, 7, 0)));
  const auto cut_raw = write("cut.yuv", raw.substr(0, raw.size() - 50));
  expect_refused_alike(
      {"-r", ref_raw, "-d", cut_raw, "-w", "24", "-h", "16", "-p", "420", "-b", "10"}, kExitPicture,
      "truncated frame 6");
  // A bad sample in frame 3: a middle rank's error.
  auto frames = make_frames(f, 7, 1);
  frames[3][0][5] = 2000;
  const auto bad = write("bad.y4m", y4m_bytes(f, frames));
  expect_refused_alike({"-r", ref, "-d", bad}, kExitFailure, "frame 3");
  // More frames asked for than exist; a skip past the end; bad usage; no such directory.
  expect_refused_alike({"-r", ref, "-d", dist, "--frame_cnt", "9"}, kExitFailure, "--frame_cnt 9");
  expect_refused_alike({"-r", ref, "-d", dist, "--frame_skip_dist", "8"}, kExitPicture,
                       "--frame_skip_dist 8");
  expect_refused_alike({"-r", ref, "-d", dist, "--subsample", "-1"}, kExitUsage, "--subsample");
  // Pictures a feature refuses, as it is set up (adm, float_ms_ssim with libvmaf's own 1)
  // or while it scores (speed_temporal, from its second frame: on every rank).
  expect_refused_alike({"-r", ref, "-d", dist, "--feature", "adm", "-n"}, kExitPicture, "33x33");
  expect_refused_alike({"-r", ref, "-d", dist, "--feature", "float_ms_ssim", "-n"}, 1,
                       "float_ms_ssim cannot score a 24x16 picture");
  const VideoFormat nine = make_format(24, 16, ChromaFormat::k420, 9);
  const auto ref9 = write_y4m("ref9.y4m", nine, 7, 0);
  const auto dist9 = write_y4m("dist9.y4m", nine, 7, 1);
  expect_refused_alike({"-r", ref9, "-d", dist9, "--feature", "speed_temporal", "-n"}, kExitPicture,
                       "9-bit pictures are not scored");
  const RunResult r = mpi(3, {"-r", ref, "-d", dist, "-o", path("no/such/dir/out.xml")});
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.status, kExitFailure) << describe(r);
  EXPECT_TRUE(r.err.starts_with("exactvq-mpi: cannot write")) << describe(r);
}

}  // namespace
}  // namespace exactvq::clitest
