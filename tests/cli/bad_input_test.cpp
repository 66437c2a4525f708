// Bad input files (spec/ssim.md, "What bad input gets"): exit status 1, a message that
// names the problem, and no output file.
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_fixture.h"

namespace exactvq::clitest {
namespace {

class BadInput : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    fmt_ = make_format(16, 12);
    ref_ = write_y4m("ref.y4m", fmt_, 3, 0);
  }

  // A file whose Y4M header line is `header` (no newline), followed by one good frame.
  std::string with_header(const std::string& name, const std::string& header) {
    return write(name, header + "\nFRAME\n" + frame_payload(fmt_, make_frame(fmt_, 0, 1)));
  }

  VideoFormat fmt_;
  std::string ref_;
};

// --- Mismatches between -r and -d ------------------------------------------

TEST_F(BadInput, SizeMismatchNamesBothFiles) {
  const std::string dist = write_y4m("dist.y4m", make_format(18, 12), 3, 1);
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure,
                 {ref_, dist, "sizes differ", "16x12", "18x12"});
}

TEST_F(BadInput, ChromaMismatchNamesBothFiles) {
  const std::string dist = write_y4m("dist.y4m", make_format(16, 12, ChromaFormat::k444), 3, 1);
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure,
                 {ref_, dist, "chroma formats differ", "420", "444"});
}

TEST_F(BadInput, BitDepthMismatchNamesBothFiles) {
  const std::string dist = write_y4m("dist.y4m", make_format(16, 12, ChromaFormat::k420, 10), 3, 1);
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure,
                 {ref_, dist, "bit depths differ", "8 vs 10"});
}

// The inputs open at once (each on a thread of its own); the errors are those
// of opening them one after the other: the reference's where both fail.
TEST_F(BadInput, BothInputsBadNamesTheReference) {
  const std::string ref = write("bad_ref.y4m", "YUV4MPEG2 W0 H0\n");
  const std::string dist = write("bad_dist.y4m", "YUV4MPEG2 W0 H0\n");
  const RunResult r = expect_refused({"-r", ref, "-d", dist}, kExitFailure, {ref});
  EXPECT_EQ(r.err.find(dist), std::string::npos) << r.err;
}

TEST_F(BadInput, ABadDistortedInputIsNamed) {
  const std::string dist = (dir_ / "missing_dist.y4m").string();
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure, {dist});
}

// --- Samples ------------------------------------------------------------------

TEST_F(BadInput, SampleAboveMaximumNamesFramePlanePosition) {
  const VideoFormat f10 = make_format(16, 12, ChromaFormat::k420, 10);
  const std::string ref = write_y4m("ref10.y4m", f10, 3, 0);
  std::vector<Frame> frames = make_frames(f10, 3, 1);
  frames[1][1][size_t(2) * size_t(f10.plane_width(1)) + 5] = 1024;  // Cb, x=5, y=2
  const std::string dist = write("dist10.y4m", y4m_bytes(f10, frames));
  expect_refused({"-r", ref, "-d", dist}, kExitFailure,
                 {dist, "frame 1", "plane Cb", "x=5", "y=2", "1024", "1023"});
}

TEST_F(BadInput, SampleAboveMaximumInRawYuv) {
  const VideoFormat f10 = make_format(16, 12, ChromaFormat::k420, 10);
  std::vector<Frame> frames = make_frames(f10, 2, 0);
  frames[0][0][size_t(7) * 16 + 3] = 0xffff;  // Y, x=3, y=7
  const std::string ref = write("ref10.yuv", raw_bytes(f10, frames));
  const std::string dist = write("dist10.yuv", raw_bytes(f10, make_frames(f10, 2, 1)));
  expect_refused({"-r", ref, "-d", dist, "-w", "16", "-h", "12", "-p", "420", "-b", "10"},
                 kExitFailure, {ref, "frame 0", "plane Y", "x=3", "y=7", "65535"});
}

// --- Truncated and malformed Y4M -------------------------------------------

TEST_F(BadInput, TruncatedFrame) {
  std::string bytes = y4m_bytes(fmt_, make_frames(fmt_, 3, 1));
  bytes.resize(bytes.size() - 100);  // the file ends inside frame 2's planes
  const std::string dist = write("dist.y4m", bytes);
  expect_refused({"-r", ref_, "-d", dist}, kExitPicture,
                 {dist, "truncated frame 2", "188 of 288 bytes"});
}

TEST_F(BadInput, HugeValidHeaderOnATinyFileIsTruncatedWithoutAllocating) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "ulimit -v cannot be combined with AddressSanitizer's shadow memory";
#endif
  // 16384x16384 is a size we accept; the frame (384 MiB) must not be allocated
  // for a file that holds 3 bytes of it.
  const std::string dist = write("dist.y4m", "YUV4MPEG2 W16384 H16384 C420jpeg\nFRAME\nabc");
  const RunResult r =
      run_shell("ulimit -v 262144 && exec \"$@\"",
                {EXACTVQ_CLI_PATH, "--feature", "ssim", "--threads", "1", "-r", dist, "-d", dist},
                with_timeout(10));
  EXPECT_EQ(r.status, kExitPicture) << describe(r);
  EXPECT_NE(r.err.find("truncated frame 0 (got 3 of 402653184 bytes)"), std::string::npos)
      << describe(r);
}

TEST_F(BadInput, EndsInsideFrameHeader) {
  const std::string dist = write("dist.y4m", y4m_bytes(fmt_, make_frames(fmt_, 2, 1)) + "FRA");
  expect_refused({"-r", ref_, "-d", dist}, kExitPicture,
                 {dist, "truncated frame 2", "FRAME header"});
}

TEST_F(BadInput, MissingFrameMarker) {
  std::string bytes = y4m_bytes(fmt_, make_frames(fmt_, 1, 1));
  bytes += "FRAMX\n" + frame_payload(fmt_, make_frame(fmt_, 1, 1));
  const std::string dist = write("dist.y4m", bytes);
  expect_refused({"-r", ref_, "-d", dist}, kExitPicture,
                 {dist, "frame 1", "expected a FRAME marker"});
}

TEST_F(BadInput, FrameMarkerReplacedByData) {
  // A frame with one byte too many: the next "FRAME" is found one byte late.
  std::string bytes = y4m_bytes(fmt_, make_frames(fmt_, 1, 1)) + "\x01";
  bytes += "FRAME\n" + frame_payload(fmt_, make_frame(fmt_, 1, 1));
  const std::string dist = write("dist.y4m", bytes);
  expect_refused({"-r", ref_, "-d", dist}, kExitPicture, {dist, "expected a FRAME marker"});
}

TEST_F(BadInput, HeaderWithoutWidth) {
  const std::string dist = with_header("dist.y4m", "YUV4MPEG2 H12 F25:1 C420jpeg");
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure, {dist, "no width tag (W)"});
}

TEST_F(BadInput, HeaderWithoutHeight) {
  const std::string dist = with_header("dist.y4m", "YUV4MPEG2 W16 F25:1 C420jpeg");
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure, {dist, "no height tag (H)"});
}

TEST_F(BadInput, HeaderWidthZero) {
  const std::string dist = with_header("dist.y4m", "YUV4MPEG2 W0 H12 C420jpeg");
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure, {dist, "0x12"});
}

TEST_F(BadInput, HeaderWidthNegative) {
  const std::string dist = with_header("dist.y4m", "YUV4MPEG2 W-16 H12 C420jpeg");
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure,
                 {dist, "W-16", "not a positive decimal number"});
}

TEST_F(BadInput, HeaderWidthNotNumeric) {
  const std::string dist = with_header("dist.y4m", "YUV4MPEG2 Wabc H12 C420jpeg");
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure,
                 {dist, "Wabc", "not a positive decimal number"});
}

TEST_F(BadInput, HeaderHeightEmpty) {
  const std::string dist = with_header("dist.y4m", "YUV4MPEG2 W16 H C420jpeg");
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure, {dist, "height"});
}

// An absurd size must be refused from the header alone: quickly, and without
// allocating the frame (run under a 256 MiB address-space limit).
TEST_F(BadInput, HeaderAbsurdSizeRefusedWithoutAllocating) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "ulimit -v cannot be combined with AddressSanitizer's shadow memory";
#endif
  struct Case {
    const char* header;
    const char* needle;
  };
  const Case cases[] = {
      {"YUV4MPEG2 W99999999 H12 C420jpeg", "beyond the supported limit"},
      {"YUV4MPEG2 W16 H99999999 C420jpeg", "beyond the supported limit"},
      {"YUV4MPEG2 W99999999999999999999 H12 C420jpeg", "too large"},
      {"YUV4MPEG2 W65536 H65536 C420jpeg", "beyond the supported limit"},  // 2^32 samples
      {"YUV4MPEG2 W40000 H40000 C444p16", "beyond the supported limit"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.header);
    const std::string dist = with_header("dist.y4m", c.header);
    const RunResult r = run_shell("ulimit -v 262144 && exec \"$@\"",
                                  {EXACTVQ_CLI_PATH, "--feature", "ssim", "--threads", "1", "-r",
                                   ref_, "-d", dist, "-o", path("absurd.xml")},
                                  with_timeout(10));
    EXPECT_EQ(r.status, kExitFailure) << describe(r);
    EXPECT_NE(r.err.find(c.needle), std::string::npos) << describe(r);
    EXPECT_EQ(r.err.find("bad_alloc"), std::string::npos) << describe(r);
    EXPECT_LT(r.seconds, 5.0) << describe(r);
    EXPECT_FALSE(fs::exists(path("absurd.xml")));
  }
}

TEST_F(BadInput, HeaderUnknownTag) {
  const std::string dist = with_header("dist.y4m", "YUV4MPEG2 W16 H12 Z7 C420jpeg");
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure, {dist, "unknown tag 'Z7'"});
}

TEST_F(BadInput, HeaderUnsupportedChroma) {
  const std::string dist = with_header("dist.y4m", "YUV4MPEG2 W16 H12 C411");
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure, {dist, "unsupported chroma tag '411'"});
}

TEST_F(BadInput, HeaderUnsupportedBitDepth) {
  const std::string dist = with_header("dist.y4m", "YUV4MPEG2 W16 H12 C420p17");
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure, {dist, "unsupported chroma tag '420p17'"});
}

TEST_F(BadInput, HeaderWithoutNewline) {
  const std::string dist = write("dist.y4m", "YUV4MPEG2 W16 H12 C420jpeg");
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure, {dist, "truncated Y4M header"});
}

TEST_F(BadInput, HeaderLineWithoutEnd) {
  // A header that never ends is refused after a bounded number of bytes.
  const std::string dist = write("dist.y4m", "YUV4MPEG2 W16 H12 X" + std::string(100000, 'x'));
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure, {dist, "no end of line"});
}

TEST_F(BadInput, FrameLineWithoutEnd) {
  const std::string dist =
      write("dist.y4m", y4m_header(fmt_) + "FRAME X" + std::string(100000, 'x'));
  expect_refused({"-r", ref_, "-d", dist}, kExitPicture, {dist, "frame 0", "no end of line"});
}

TEST_F(BadInput, FrameParametersAreAccepted) {
  const std::vector<Frame> frames = make_frames(fmt_, 3, 1);
  std::string bytes = y4m_header(fmt_);
  for (const Frame& f : frames) bytes += "FRAME Ip XCOMMENT=1\n" + frame_payload(fmt_, f);
  const std::string dist = write("dist.y4m", bytes);
  const RunResult r = run_cli({"-r", ref_, "-d", dist, "--csv", "-o", path("o.csv")});
  EXPECT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(parse_csv(read_file(path("o.csv"))).frames, (std::vector<int64_t>{0, 1, 2}));
}

TEST_F(BadInput, NotAY4mSignature) {
  const std::string dist = write("dist.y4m", "YUV4MPEG W16 H12\nFRAME\n");
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure, {dist, "not a Y4M file"});
}

TEST_F(BadInput, HeaderOnlyHasNoFrames) {
  const std::string dist = write("dist.y4m", y4m_header(fmt_));
  expect_refused({"-r", ref_, "-d", dist}, kExitPicture, {dist, "no frames"});
}

// --- Paths --------------------------------------------------------------------

TEST_F(BadInput, EmptyFile) {
  const std::string dist = write("dist.y4m", "");
  expect_refused({"-r", ref_, "-d", dist}, kExitFailure, {dist, "is empty"});
  const std::string dist_noext = write("dist_noext", "");
  expect_refused({"-r", ref_, "-d", dist_noext}, kExitFailure, {dist_noext, "is empty"});
}

TEST_F(BadInput, DirectoryAsInput) {
  fs::create_directories(path("a_directory"));
  fs::create_directories(path("a_directory.y4m"));
  expect_refused({"-r", ref_, "-d", path("a_directory")}, kExitFailure,
                 {path("a_directory"), "Is a directory"});
  expect_refused({"-r", path("a_directory.y4m"), "-d", ref_}, kExitFailure,
                 {path("a_directory.y4m"), "Is a directory"});
}

TEST_F(BadInput, NonexistentPath) {
  const std::string missing = path("no_such_file.y4m");
  expect_refused({"-r", ref_, "-d", missing}, kExitFailure, {missing, "No such file or directory"});
  const std::string missing_raw = path("no_such_file.yuv");
  expect_refused({"-r", missing_raw, "-d", ref_, "-w", "16", "-h", "12", "-p", "420", "-b", "8"},
                 kExitFailure, {missing_raw, "No such file or directory"});
}

// Runs the CLI without root's privilege to ignore file modes: as `nobody` through
// setpriv (util-linux) when the tests run as root.
RunResult run_unprivileged(const std::vector<std::string>& args) {
  std::vector<std::string> all{EXACTVQ_CLI_PATH};
  const std::vector<std::string> given = with_ssim_default(args);
  all.insert(all.end(), given.begin(), given.end());
  if (::geteuid() != 0) return run_shell("exec \"$@\"", all);
  return run_shell("exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$@\"", all);
}

// Whether the unprivileged user can run the CLI and read `input` (the checkout may
// sit in a folder only root can enter).
bool can_drop_root(const std::string& input) {
  if (::geteuid() != 0) return true;
  return run_shell(
             "exec setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "
             "'\"$0\" --version >/dev/null && test -r \"$1\"' \"$@\"",
             {EXACTVQ_CLI_PATH, input})
             .status == 0;
}

TEST_F(BadInput, UnreadableFile) {
  if (!can_drop_root(ref_))
    GTEST_SKIP() << "running as root, and user nobody cannot run the CLI here: root reads any file";
  const std::string dist = write_y4m("dist.y4m", fmt_, 3, 1);
  ASSERT_EQ(::chmod(dist.c_str(), 0), 0);
  const RunResult r = run_unprivileged({"-r", ref_, "-d", dist});
  ::chmod(dist.c_str(), 0644);
  EXPECT_EQ(r.status, kExitFailure) << describe(r);
  EXPECT_NE(r.err.find("cannot open " + dist + ": Permission denied"), std::string::npos)
      << describe(r);
  EXPECT_EQ(r.out, "");
}

// --- Raw YUV --------------------------------------------------------------------

TEST_F(BadInput, RawYuvWithoutGeometry) {
  const std::string ref = write("ref.yuv", raw_bytes(fmt_, make_frames(fmt_, 2, 0)));
  const std::string dist = write("dist.yuv", raw_bytes(fmt_, make_frames(fmt_, 2, 1)));
  // No geometry: not Y4M, so unreadable (libvmaf: 255); some of it: a usage error, as in
  // libvmaf's parser.
  expect_refused({"-r", ref, "-d", dist}, kExitFailure, {ref, "-w, -h, -p and -b"});
  expect_refused({"-r", ref, "-d", dist, "-w", "16", "-h", "12"}, kExitUsage, {"missing -p, -b"});
  expect_refused({"-r", ref, "-d", dist, "-w", "16", "-h", "12", "-p", "420"}, kExitUsage,
                 {"missing -b"});
}

TEST_F(BadInput, RawYuvBadGeometryValues) {
  const std::string ref = write("ref.yuv", raw_bytes(fmt_, make_frames(fmt_, 2, 0)));
  const std::string dist = write("dist.yuv", raw_bytes(fmt_, make_frames(fmt_, 2, 1)));
  const std::vector<std::string> base{"-r", ref, "-d", dist};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  expect_refused(with({"-w", "0", "-h", "12", "-p", "420", "-b", "8"}), kExitUsage, {"-w 0"});
  expect_refused(with({"-w", "16", "-h", "12", "-p", "411", "-b", "8"}), kExitUsage, {"-p 411"});
  expect_refused(with({"-w", "16", "-h", "12", "-p", "420", "-b", "7"}), kExitUsage, {"-b 7"});
  expect_refused(with({"-w", "16", "-h", "12", "-p", "420", "-b", "17"}), kExitUsage, {"-b 17"});
  expect_refused(with({"-w", "16x", "-h", "12", "-p", "420", "-b", "8"}), kExitUsage, {"-w 16x"});
}

TEST_F(BadInput, RawYuvTruncatedLastFrame) {
  const std::string ref = write("ref.yuv", raw_bytes(fmt_, make_frames(fmt_, 3, 0)));
  std::string bytes = raw_bytes(fmt_, make_frames(fmt_, 3, 1));
  bytes.resize(bytes.size() - 1);
  const std::string dist = write("dist.yuv", bytes);
  expect_refused({"-r", ref, "-d", dist, "-w", "16", "-h", "12", "-p", "420", "-b", "8"},
                 kExitPicture, {dist, "truncated frame 2", "287 of 288 bytes"});
}

TEST_F(BadInput, RawYuvSizeMismatchWithGeometry) {
  // Three 16x12 420 frames (3 x 288 bytes) read as 16x12 444 (576 bytes) are 1.5 frames.
  const std::string ref = write("ref.yuv", raw_bytes(fmt_, make_frames(fmt_, 3, 0)));
  const std::string dist = write("dist.yuv", raw_bytes(fmt_, make_frames(fmt_, 3, 1)));
  expect_refused({"-r", ref, "-d", dist, "-w", "16", "-h", "12", "-p", "444", "-b", "8"},
                 kExitPicture, {ref, "truncated frame 1", "288 of 576 bytes"});
}

// --- Frame counts ----------------------------------------------------------------

TEST_F(BadInput, FrameCountBeyondInput) {
  const std::string dist = write_y4m("dist.y4m", fmt_, 3, 1);
  expect_refused({"-r", ref_, "-d", dist, "--frame_cnt", "5"}, kExitFailure,
                 {"--frame_cnt 5", "only 3 frames"});
}

TEST_F(BadInput, FrameSkipBeyondInput) {
  const std::string dist = write_y4m("dist.y4m", fmt_, 3, 1);
  expect_refused({"-r", ref_, "-d", dist, "--frame_skip_ref", "4"}, kExitPicture,
                 {"--frame_skip_ref 4", ref_, "only 3 frames"});
  expect_refused({"-r", ref_, "-d", dist, "--frame_skip_dist", "3"}, kExitPicture, {"no frames"});
}

TEST_F(BadInput, TruncatedFrameNotReachedIsNotAnError) {
  // --frame_cnt stops before the damaged frame: the run succeeds.
  std::string bytes = y4m_bytes(fmt_, make_frames(fmt_, 3, 1));
  bytes.resize(bytes.size() - 10);
  const std::string dist = write("dist.y4m", bytes);
  const RunResult r =
      run_cli({"-r", ref_, "-d", dist, "--frame_cnt", "2", "-o", path("o.csv"), "--csv"});
  EXPECT_EQ(r.status, 0) << describe(r);
  EXPECT_EQ(parse_csv(read_file(path("o.csv"))).frames, (std::vector<int64_t>{0, 1}));
}

// --- Output paths ----------------------------------------------------------------

TEST_F(BadInput, OutputIntoMissingDirectory) {
  const std::string dist = write_y4m("dist.y4m", fmt_, 3, 1);
  const std::string out = path("missing_dir/report.xml");
  const RunResult r = run_cli({"-r", ref_, "-d", dist, "-o", out});
  EXPECT_EQ(r.status, kExitFailure) << describe(r);
  EXPECT_NE(r.err.find("cannot write " + out), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("No such file or directory"), std::string::npos) << describe(r);
  EXPECT_FALSE(fs::exists(path("missing_dir")));
}

TEST_F(BadInput, OutputOverAnInputIsRefusedBeforeScoring) {
  const std::string dist = write_y4m("dist.y4m", fmt_, 3, 1);
  const std::string before = read_file(dist);
  const RunResult r = run_cli({"-r", ref_, "-d", dist, "-o", dist});
  EXPECT_EQ(r.status, kExitFailure) << describe(r);
  EXPECT_NE(r.err.find("it is also the input"), std::string::npos) << describe(r);
  EXPECT_EQ(read_file(dist), before);
}

TEST_F(BadInput, UnwritableOutputIsReportedBeforeReadingInputs) {
  // The output check comes first: a long run does not end in a lost result.
  const RunResult r = run_cli({"-r", path("missing.y4m"), "-d", ref_, "-o", path("no/dir/o.xml")});
  EXPECT_EQ(r.status, kExitFailure) << describe(r);
  EXPECT_NE(r.err.find("cannot write"), std::string::npos) << describe(r);
}

TEST_F(BadInput, OutputToDevFull) {
  const std::string dist = write_y4m("dist.y4m", fmt_, 3, 1);
  const RunResult r = run_cli({"-r", ref_, "-d", dist, "-o", "/dev/full"});
  EXPECT_EQ(r.status, kExitFailure) << describe(r);
  EXPECT_NE(r.err.find("cannot write /dev/full"), std::string::npos) << describe(r);
  EXPECT_EQ(r.out, "");
}

TEST_F(BadInput, SummaryToFullStdout) {
  const std::string dist = write_y4m("dist.y4m", fmt_, 3, 1);
  const RunResult r = run_cli({"-r", ref_, "-d", dist}, stdout_to("/dev/full"));
  EXPECT_EQ(r.status, kExitFailure) << describe(r);
  EXPECT_NE(r.err.find("standard output"), std::string::npos) << describe(r);
}

TEST_F(BadInput, OutputToDirectory) {
  const std::string dist = write_y4m("dist.y4m", fmt_, 3, 1);
  fs::create_directories(path("outdir"));
  const RunResult r = run_cli({"-r", ref_, "-d", dist, "-o", path("outdir")});
  EXPECT_EQ(r.status, kExitFailure) << describe(r);
  EXPECT_NE(r.err.find("cannot write " + path("outdir")), std::string::npos) << describe(r);
  EXPECT_TRUE(list_dir(path("outdir")).empty());
}

TEST_F(BadInput, OutputNotWritableKeepsFile) {
  if (!can_drop_root(ref_))
    GTEST_SKIP()
        << "running as root, and user nobody cannot run the CLI here: root writes any file";
  const std::string dist = write_y4m("dist.y4m", fmt_, 3, 1);
  const std::string out = write("ro.xml", "old\n");
  ASSERT_EQ(::chmod(out.c_str(), 0444), 0);
  const RunResult r = run_unprivileged({"-r", ref_, "-d", dist, "-o", out});
  EXPECT_EQ(r.status, kExitFailure) << describe(r);
  EXPECT_NE(r.err.find("Permission denied"), std::string::npos) << describe(r);
  EXPECT_EQ(read_file(out), "old\n");
}

}  // namespace
}  // namespace exactvq::clitest
