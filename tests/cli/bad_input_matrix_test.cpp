// The bad-input matrix: every kind of bad input or bad usage the CLI can be
// given, each run through expect_refused: a specific message, a non-zero exit status,
// nothing on stdout, no output file created and an existing one left byte-identical.
// Cases already in bad_input_test.cpp and usage_test.cpp are not repeated here.
#include <sys/stat.h>

#include <functional>

#include "cli/cli_fixture.h"

namespace exactvq::clitest {
namespace {

struct Invocation {
  std::vector<std::string> args;
  int status = kExitFailure;
  std::vector<std::string> needles;  // what stderr must name; "$DIST" etc. are replaced
  RunIo io = {};
  bool as_nobody = false;  // run without root's privileges (unreadable files)
};

class BadInputMatrix;

struct MatrixCase {
  const char* name;
  std::function<Invocation(BadInputMatrix&)> make;
};

class BadInputMatrix : public CliTest, public ::testing::WithParamInterface<MatrixCase> {
 public:
  void SetUp() override {
    CliTest::SetUp();
    fmt_ = make_format(16, 12);
    ref_ = write_y4m("ref.y4m", fmt_, 3, 0);
  }

  // Distorted Y4M input whose bytes are `bytes`.
  std::string dist(const std::string& bytes, const std::string& name = "dist.y4m") {
    return write(name, bytes);
  }
  // A good distorted stream of `frames` frames, for cases that cut or alter it.
  std::string good_bytes(int frames = 3) { return y4m_bytes(fmt_, make_frames(fmt_, frames, 1)); }
  // A stream whose header line is `header`, then one good frame.
  std::string with_header(const std::string& header) {
    return header + "\nFRAME\n" + frame_payload(fmt_, make_frame(fmt_, 0, 1));
  }
  // -r ref.y4m -d DIST plus `extra`.
  std::vector<std::string> pair(const std::string& dist_path,
                                const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> a{"-r", ref_, "-d", dist_path};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  }
  std::string raw_ref() { return write("ref.yuv", raw_bytes(fmt_, make_frames(fmt_, 2, 0))); }
  static std::vector<std::string> raw_geometry() {
    return {"-w", "16", "-h", "12", "-p", "420", "-b", "8"};
  }

  using CliTest::path;
  using CliTest::write;
  using CliTest::write_y4m;
  VideoFormat fmt_;
  std::string ref_;
};

TEST_P(BadInputMatrix, RefusedCleanly) {
  const Invocation inv = GetParam().make(*this);
  if (inv.as_nobody) {
    if (!nobody_can_run_on(ref_))
      GTEST_SKIP() << "running as root, and user nobody cannot run the CLI here";
    as_nobody_ = true;
  }
  expect_refused(inv.args, inv.status, inv.needles, inv.io);
}

std::string y4m_header_of(const VideoFormat& f) { return y4m_header(f); }

const MatrixCase kCases[] = {
    // --- Y4M stream header: sizes -------------------------------------------------
    {"HeightZero",
     [](BadInputMatrix& t) {
       const auto d = t.dist(t.with_header("YUV4MPEG2 W16 H0 C420jpeg"));
       return Invocation{t.pair(d), kExitFailure, {d, "invalid size 16x0", "at least 1"}};
     }},
    {"HeightNegative",
     [](BadInputMatrix& t) {
       const auto d = t.dist(t.with_header("YUV4MPEG2 W16 H-12 C420jpeg"));
       return Invocation{t.pair(d), kExitFailure, {d, "H-12", "not a positive decimal number"}};
     }},
    {"WidthWithSign",
     [](BadInputMatrix& t) {
       const auto d = t.dist(t.with_header("YUV4MPEG2 W+16 H12 C420jpeg"));
       return Invocation{t.pair(d), kExitFailure, {d, "W+16", "not a positive decimal number"}};
     }},
    {"WidthBeyondInt",
     [](BadInputMatrix& t) {
       const auto d = t.dist(t.with_header("YUV4MPEG2 W4294967312 H12 C420jpeg"));
       return Invocation{t.pair(d), kExitFailure, {d, "W4294967312", "too large"}};
     }},
    {"SizeJustAboveTheSampleLimit",
     [](BadInputMatrix& t) {
       // 65536 x 4097 is one row more than 2^28 samples: refused from the header.
       const auto d = t.dist(t.with_header("YUV4MPEG2 W65536 H4097 C444p16"));
       return Invocation{t.pair(d), kExitFailure, {d, "65536x4097", "beyond the supported limit"}};
     }},
    {"WidthJustAboveTheSideLimit",
     [](BadInputMatrix& t) {
       const auto d = t.dist(t.with_header("YUV4MPEG2 W65537 H1 C420jpeg"));
       return Invocation{t.pair(d), kExitFailure, {d, "65537x1", "beyond the supported limit"}};
     }},
    // --- Y4M stream header: tags --------------------------------------------------
    {"LowercaseTag",
     [](BadInputMatrix& t) {
       const auto d = t.dist(t.with_header("YUV4MPEG2 W16 H12 c420jpeg"));
       return Invocation{t.pair(d), kExitFailure, {d, "unknown tag 'c420jpeg'", "byte 18"}};
     }},
    {"UnknownTagFirst",
     [](BadInputMatrix& t) {
       const auto d = t.dist(t.with_header("YUV4MPEG2 Q W16 H12 C420jpeg"));
       return Invocation{t.pair(d), kExitFailure, {d, "unknown tag 'Q'", "byte 10"}};
     }},
    {"MalformedFrameRate",
     [](BadInputMatrix& t) {
       const auto d = t.dist(t.with_header("YUV4MPEG2 W16 H12 F25 C420jpeg"));
       return Invocation{t.pair(d), kExitFailure, {d, "malformed frame rate tag 'F25'"}};
     }},
    {"MalformedAspectRatio",
     [](BadInputMatrix& t) {
       const auto d = t.dist(t.with_header("YUV4MPEG2 W16 H12 A1:x C420jpeg"));
       return Invocation{t.pair(d), kExitFailure, {d, "malformed aspect ratio tag 'A1:x'"}};
     }},
    {"MalformedInterlacing",
     [](BadInputMatrix& t) {
       const auto d = t.dist(t.with_header("YUV4MPEG2 W16 H12 Ix C420jpeg"));
       return Invocation{t.pair(d), kExitFailure, {d, "malformed interlacing tag 'Ix'"}};
     }},
    {"ChromaTagLeadingZeroDepth",
     [](BadInputMatrix& t) {
       const auto d = t.dist(t.with_header("YUV4MPEG2 W16 H12 C420p010"));
       return Invocation{t.pair(d), kExitFailure, {d, "unsupported chroma tag '420p010'"}};
     }},
    {"ChromaTagEightBitSpelledHigh",
     [](BadInputMatrix& t) {
       const auto d = t.dist(t.with_header("YUV4MPEG2 W16 H12 C420p8"));
       return Invocation{t.pair(d), kExitFailure, {d, "unsupported chroma tag '420p8'"}};
     }},
    {"WindowsLineEnding",
     [](BadInputMatrix& t) {
       const auto d = t.dist(t.with_header("YUV4MPEG2 W16 H12 C420jpeg\r"));
       return Invocation{t.pair(d), kExitFailure, {d, "unsupported chroma tag '420jpeg\\x0d'"}};
     }},
    {"SignatureOnly",
     [](BadInputMatrix& t) {
       const auto d = t.dist("YUV4MPEG2 \n");
       return Invocation{t.pair(d), kExitFailure, {d, "no width tag (W)"}};
     }},
    {"SignatureWithoutSpace",
     [](BadInputMatrix& t) {
       const auto d = t.dist("YUV4MPEG2\nFRAME\n");
       return Invocation{t.pair(d), kExitFailure, {d, "not a Y4M file"}};
     }},
    {"EndsInsideSignature",
     [](BadInputMatrix& t) {
       const auto d = t.dist("YUV4M");
       return Invocation{t.pair(d), kExitFailure, {d, "not a Y4M file", "YUV4M"}};
     }},
    {"EndsInsideHeaderTag",
     [](BadInputMatrix& t) {
       const auto d = t.dist("YUV4MPEG2 W16 H1");
       return Invocation{t.pair(d), kExitFailure, {d, "truncated Y4M header", "after 16 bytes"}};
     }},
    {"BinaryGarbageAfterSignature",
     [](BadInputMatrix& t) {
       const auto d = t.dist(t.with_header(std::string("YUV4MPEG2 W16 H12 \x01\xff", 20)));
       return Invocation{t.pair(d), kExitFailure, {d, "unknown tag '\\x01\\xff'"}};
     }},
    // --- FRAME markers ------------------------------------------------------------
    {"MissingFirstFrameMarker",
     [](BadInputMatrix& t) {
       const auto d =
           t.dist(y4m_header_of(t.fmt_) + frame_payload(t.fmt_, make_frame(t.fmt_, 0, 1)));
       const std::string at = "at byte " + std::to_string(y4m_header_of(t.fmt_).size());
       return Invocation{t.pair(d), kExitPicture, {d, "frame 0", "expected a FRAME marker " + at}};
     }},
    {"LowercaseFrameMarker",
     [](BadInputMatrix& t) {
       const auto d = t.dist(y4m_header_of(t.fmt_) + "frame\n" +
                             frame_payload(t.fmt_, make_frame(t.fmt_, 0, 1)));
       return Invocation{t.pair(d), kExitPicture, {d, "frame 0", "expected a FRAME marker", "'f'"}};
     }},
    {"FrameMarkerWithCarriageReturn",
     [](BadInputMatrix& t) {
       const auto d = t.dist(y4m_header_of(t.fmt_) + "FRAME\r\n" +
                             frame_payload(t.fmt_, make_frame(t.fmt_, 0, 1)));
       return Invocation{
           t.pair(d), kExitPicture, {d, "frame 0", "expected a FRAME marker", "FRAME\\x0d"}};
     }},
    // --- Files that end early ---------------------------------------------------
    {"EndsAfterFrameMarker",
     [](BadInputMatrix& t) {
       const auto d = t.dist(t.good_bytes(1) + "FRAME\n");
       return Invocation{t.pair(d), kExitPicture, {d, "truncated frame 1", "got 0 of 288 bytes"}};
     }},
    {"EndsBeforeFrameMarkerNewline",
     [](BadInputMatrix& t) {
       const auto d = t.dist(y4m_header_of(t.fmt_) + "FRAME");
       return Invocation{
           t.pair(d), kExitPicture, {d, "truncated frame 0", "FRAME header after 5 bytes"}};
     }},
    {"EndsInsideFirstPlane",
     [](BadInputMatrix& t) {
       const auto d = t.dist(y4m_header_of(t.fmt_) + "FRAME\nA");
       return Invocation{t.pair(d), kExitPicture, {d, "truncated frame 0", "got 1 of 288 bytes"}};
     }},
    {"EndsOneByteShortInLastPlane",
     [](BadInputMatrix& t) {
       std::string bytes = t.good_bytes(2);
       bytes.pop_back();
       const auto d = t.dist(bytes);
       return Invocation{t.pair(d), kExitPicture, {d, "truncated frame 1", "got 287 of 288 bytes"}};
     }},
    {"ReferenceEndsInsideFrame",
     [](BadInputMatrix& t) {
       std::string bytes = y4m_bytes(t.fmt_, make_frames(t.fmt_, 3, 0));
       bytes.resize(bytes.size() - 200);
       const auto r = t.write("short_ref.y4m", bytes);
       return Invocation{{"-r", r, "-d", t.write_y4m("d.y4m", t.fmt_, 3, 1)},
                         kExitPicture,
                         {r, "truncated frame 2", "got 88 of 288 bytes"}};
     }},
    {"RawShorterThanOneFrame",
     [](BadInputMatrix& t) {
       const auto d = t.write("dist.yuv", std::string(100, '\x10'));
       auto args = std::vector<std::string>{"-r", t.raw_ref(), "-d", d};
       for (const auto& a : BadInputMatrix::raw_geometry()) args.push_back(a);
       return Invocation{args, kExitPicture, {d, "truncated frame 0", "got 100 of 288 bytes"}};
     }},
    {"RawEmpty",
     [](BadInputMatrix& t) {
       const auto d = t.write("dist.yuv", "");
       auto args = std::vector<std::string>{"-r", t.raw_ref(), "-d", d};
       for (const auto& a : BadInputMatrix::raw_geometry()) args.push_back(a);
       return Invocation{args, kExitFailure, {d, "is empty"}};
     }},
    {"Sample12BitAboveMaximumInLastCrSample",
     [](BadInputMatrix& t) {
       const VideoFormat f12 = make_format(16, 12, ChromaFormat::k420, 12);
       std::vector<Frame> frames = make_frames(f12, 2, 1);
       frames[0][2].back() = 4096;  // Cr, x=7, y=5
       const auto r = t.write_y4m("ref12.y4m", f12, 2, 0);
       const auto d = t.write("dist12.y4m", y4m_bytes(f12, frames));
       return Invocation{{"-r", r, "-d", d},
                         kExitFailure,
                         {d, "frame 0", "plane Cr", "x=7", "y=5", "4096", "4095"}};
     }},
    // --- Paths ----------------------------------------------------------------------
    {"EmptyCharacterDevice",
     [](BadInputMatrix& t) {
       return Invocation{t.pair("/dev/null"), kExitFailure, {"/dev/null is empty"}};
     }},
    {"SymlinkLoop",
     [](BadInputMatrix& t) {
       const std::string loop = t.path("loop.y4m");
       fs::create_symlink(loop, loop);
       return Invocation{t.pair(loop), kExitFailure, {loop, "Too many levels of symbolic links"}};
     }},
    {"PathThroughAFile",
     [](BadInputMatrix& t) {
       const std::string through = t.ref_ + "/dist.y4m";
       return Invocation{t.pair(through), kExitFailure, {through, "Not a directory"}};
     }},
    {"UnreadableReference",
     [](BadInputMatrix& t) {
       const auto r = t.write_y4m("locked_ref.y4m", t.fmt_, 3, 0);
       ::chmod(r.c_str(), 0);
       Invocation inv{{"-r", r, "-d", t.write_y4m("d.y4m", t.fmt_, 3, 1)},
                      kExitFailure,
                      {"cannot open " + r + ": Permission denied"}};
       inv.as_nobody = true;
       return inv;
     }},
    {"UnreadableRawInput",
     [](BadInputMatrix& t) {
       const auto d = t.write("locked.yuv", raw_bytes(t.fmt_, make_frames(t.fmt_, 2, 1)));
       ::chmod(d.c_str(), 0);
       auto args = std::vector<std::string>{"-r", t.raw_ref(), "-d", d};
       for (const auto& a : BadInputMatrix::raw_geometry()) args.push_back(a);
       Invocation inv{args, kExitFailure, {"cannot open " + d + ": Permission denied"}};
       inv.as_nobody = true;
       return inv;
     }},
    {"InputInUnsearchableDirectory",
     [](BadInputMatrix& t) {
       fs::create_directories(t.path("locked_dir"));
       const auto d = t.write_y4m("locked_dir/d.y4m", t.fmt_, 3, 1);
       ::chmod(t.path("locked_dir").c_str(), 0);
       Invocation inv{t.pair(d), kExitFailure, {"cannot open " + d + ": Permission denied"}};
       inv.as_nobody = true;
       return inv;
     }},
    // --- Unknown features and bad option values ----------------------------------
    {"FeatureNameCase",
     [](BadInputMatrix& t) {
       return Invocation{
           t.pair(t.ref_, {"--feature", "SSIM"}), kExitFailure, {"unknown feature 'SSIM'"}};
     }},
    {"FeatureEmpty",
     [](BadInputMatrix& t) {
       return Invocation{t.pair(t.ref_, {"--feature", ""}), kExitUsage, {"missing feature name"}};
     }},
    {"FeatureOptionsEmpty",
     [](BadInputMatrix& t) {
       return Invocation{t.pair(t.ref_, {"--feature", "ssim="}),
                         kExitUsage,
                         {"option '' is not of the form key=value"}};
     }},
    {"FeatureOptionTrailingColon",
     [](BadInputMatrix& t) {
       return Invocation{t.pair(t.ref_, {"--feature", "ssim=sum=exact:"}),
                         kExitUsage,
                         {"'ssim=sum=exact:'", "option '' is not of the form key=value"}};
     }},
    {"FeatureOptionValueWithEquals",
     [](BadInputMatrix& t) {
       return Invocation{t.pair(t.ref_, {"--feature", "ssim=sum=exact=1"}),
                         kExitFailure,
                         {"sum=exact=1 is not exact or raster"}};
     }},
    {"FeatureBooleanUppercase",
     [](BadInputMatrix& t) {
       return Invocation{t.pair(t.ref_, {"--feature", "ssim=enable_db=TRUE"}),
                         kExitFailure,
                         {"enable_db=TRUE is not a boolean"}};
     }},
    {"BitDepthNotAnInteger",
     [](BadInputMatrix& t) {
       auto args = std::vector<std::string>{"-r", t.raw_ref(), "-d", t.raw_ref(), "-w", "16",
                                            "-h", "12",        "-p", "420",       "-b", "8.5"};
       return Invocation{args, kExitUsage, {"-b 8.5", "8..16"}};
     }},
    {"WidthInExponentForm",
     [](BadInputMatrix& t) {
       auto args = std::vector<std::string>{"-r", t.raw_ref(), "-d", t.raw_ref(), "-w", "1e3",
                                            "-h", "12",        "-p", "420",       "-b", "8"};
       return Invocation{args, kExitUsage, {"-w 1e3"}};
     }},
    {"HeightAboveTheSideLimit",
     [](BadInputMatrix& t) {
       auto args = std::vector<std::string>{"-r", t.raw_ref(), "-d", t.raw_ref(), "-w", "16",
                                            "-h", "65537",     "-p", "420",       "-b", "8"};
       return Invocation{args, kExitUsage, {"-h 65537", "1..65536"}};
     }},
    {"RawSizeBeyondTheSampleLimit",
     [](BadInputMatrix& t) {
       auto args = std::vector<std::string>{"-r", t.raw_ref(), "-d", t.raw_ref(), "-w", "65536",
                                            "-h", "65536",     "-p", "444",       "-b", "16"};
       return Invocation{args, kExitFailure, {"65536x65536", "beyond the supported limit"}};
     }},
    {"PixelFormatMono",
     [](BadInputMatrix& t) {
       auto args = std::vector<std::string>{"-r", t.raw_ref(), "-d", t.raw_ref(), "-w", "16",
                                            "-h", "12",        "-p", "mono",      "-b", "8"};
       return Invocation{args, kExitUsage, {"-p mono", "420, 422 or 444"}};
     }},
    {"ThreadsAboveLimit",
     [](BadInputMatrix& t) {
       return Invocation{t.pair(t.ref_, {"--threads", "1025"}), kExitUsage, {"--threads 1025"}};
     }},
    {"FrameCountOverflowingInt64",
     [](BadInputMatrix& t) {
       return Invocation{t.pair(t.ref_, {"--frame_cnt", "99999999999999999999"}),
                         kExitUsage,
                         {"--frame_cnt 99999999999999999999", "expected an integer"}};
     }},
    {"SubsampleOverflowingInt",
     [](BadInputMatrix& t) {
       return Invocation{
           t.pair(t.ref_, {"--subsample", "2147483648"}), kExitUsage, {"--subsample 2147483648"}};
     }},
    {"PrecisionFraction",
     [](BadInputMatrix& t) {
       return Invocation{t.pair(t.ref_, {"--precision", "1.5"}), kExitUsage, {"--precision 1.5"}};
     }},
    {"GpuNegative",
     [](BadInputMatrix& t) {
       return Invocation{t.pair(t.ref_, {"--gpu=-1"}), kExitUsage, {"--gpu -1"}};
     }},
    {"OptionWithoutValue",
     [](BadInputMatrix& t) {
       // expect_refused appends -o FILE, which --threads then takes as its value.
       return Invocation{t.pair(t.ref_, {"--threads"}), kExitUsage, {"was not expected"}};
     }},
};

INSTANTIATE_TEST_SUITE_P(Cases, BadInputMatrix, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<MatrixCase>& param) {
                           return std::string(param.param.name);
                         });

// --- Outputs that cannot be written: checked by hand, since -o is the subject --------

class BadOutputMatrix : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    fmt_ = make_format(16, 12);
    ref_ = write_y4m("ref.y4m", fmt_, 3, 0);
    dist_ = write_y4m("dist.y4m", fmt_, 3, 1);
  }
  RunResult refused(const std::vector<std::string>& extra, const std::string& needle) {
    std::vector<std::string> args{"-r", ref_, "-d", dist_};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto before = list_dir(dir_);
    const RunResult r = run_cli(args);
    EXPECT_FALSE(r.timed_out) << describe(r);
    EXPECT_EQ(r.status, kExitFailure) << describe(r);
    EXPECT_TRUE(r.err.starts_with("exactvq: ")) << describe(r);
    EXPECT_NE(r.err.find(needle), std::string::npos) << "stderr lacks '" << needle << "'\n"
                                                     << describe(r);
    EXPECT_EQ(r.out, "") << describe(r);
    EXPECT_EQ(list_dir(dir_), before) << "files appeared in " << dir_;
    return r;
  }
  VideoFormat fmt_;
  std::string ref_, dist_;
};

TEST_F(BadOutputMatrix, FullDiskInEveryFormat) {
  for (const char* format : {"--xml", "--json", "--csv"}) {
    SCOPED_TRACE(format);
    refused({format, "-o", "/dev/full"}, "cannot write /dev/full: No space left on device");
  }
}

TEST_F(BadOutputMatrix, FullStandardOutputWithDash) {
  const RunResult r =
      run_cli({"-r", ref_, "-d", dist_, "--json", "-o", "-"}, stdout_to("/dev/full"));
  EXPECT_EQ(r.status, kExitFailure) << describe(r);
  EXPECT_NE(r.err.find("standard output"), std::string::npos) << describe(r);
}

TEST_F(BadOutputMatrix, DirectoryMissingTwoLevelsDown) {
  const std::string out = path("a/b/report.json");
  refused({"--json", "-o", out}, "cannot write " + out);
  EXPECT_FALSE(fs::exists(path("a")));
}

TEST_F(BadOutputMatrix, ParentIsAFile) {
  const std::string out = ref_ + "/report.xml";
  refused({"-o", out}, "cannot write " + out);
}

TEST_F(BadOutputMatrix, InputReachedThroughASymlink) {
  const std::string link = path("link.xml");
  fs::create_symlink(dist_, link);
  const std::string before = read_file(dist_);
  refused({"-o", link}, "it is also the input");
  EXPECT_EQ(read_file(dist_), before);
  EXPECT_TRUE(fs::is_symlink(link));
}

TEST_F(BadOutputMatrix, InputReachedThroughAnotherSpelling) {
  const std::string other = (dir_ / "." / "ref.y4m").string();
  const std::string before = read_file(ref_);
  refused({"-o", other}, "it is also the input");
  EXPECT_EQ(read_file(ref_), before);
}

TEST_F(BadOutputMatrix, EmptyOutputPathIsAUsageError) {
  // -o "" (an unset shell variable) must not fall back to printing a summary.
  const RunResult r = run_cli({"-r", ref_, "-d", dist_, "-o", ""});
  EXPECT_EQ(r.status, kExitUsage) << describe(r);
  EXPECT_NE(r.err.find("-o"), std::string::npos) << describe(r);
  EXPECT_EQ(r.out, "") << describe(r);
}

// An absurd raw size must be refused from the options alone, before allocating:
// under a 256 MiB address-space limit the message is the size, not an allocation failure.
TEST_F(BadOutputMatrix, RawAbsurdSizeRefusedWithoutAllocating) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "ulimit -v cannot be combined with AddressSanitizer's shadow memory";
#endif
  const std::string r = write("r.yuv", std::string(288, '\x10'));
  const RunResult run = run_shell("ulimit -v 262144 && exec \"$@\"",
                                  {EXACTVQ_CLI_PATH, "--feature", "ssim", "--threads", "1", "-r", r,
                                   "-d", r, "-w", "65536", "-h", "16384", "-p", "444", "-b", "16"},
                                  with_timeout(10));
  EXPECT_EQ(run.status, kExitFailure) << describe(run);
  EXPECT_NE(run.err.find("beyond the supported limit"), std::string::npos) << describe(run);
  EXPECT_EQ(run.err.find("out of memory"), std::string::npos) << describe(run);
}

}  // namespace
}  // namespace exactvq::clitest
