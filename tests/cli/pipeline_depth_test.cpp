// EXACTVQ_PIPELINE_DEPTH: however many batches a run keeps in flight, its scores are
// the default run's bits, and a truncated input is refused as it is by default.
#include <cstdlib>
#include <string>

#include "cli/cli_fixture.h"
#include "cli/exit_status.h"

namespace exactvq::clitest {
namespace {

class PipelineDepth : public CliTest {
 protected:
  void TearDown() override { ::unsetenv("EXACTVQ_PIPELINE_DEPTH"); }

  // VMAF v0.6.1 (the CLI's default) under EXACTVQ_PIPELINE_DEPTH=depth (unset when empty).
  Report scores(const std::string& ref, const std::string& dist, const std::string& depth,
                int threads) {
    if (depth.empty())
      ::unsetenv("EXACTVQ_PIPELINE_DEPTH");
    else
      ::setenv("EXACTVQ_PIPELINE_DEPTH", depth.c_str(), 1);
    const std::string out = path("depth" + depth + "_" + std::to_string(threads) + ".json");
    const RunResult r = run_program({EXACTVQ_CLI_PATH, "-r", ref, "-d", dist, "--json",
                                     "--precision", "max", "--threads", std::to_string(threads),
                                     "-o", out});
    EXPECT_EQ(r.status, 0) << describe(r);
    return parse_json(read_file(out));
  }
};

TEST_F(PipelineDepth, EveryDepthGivesTheDefaultBits) {
  const VideoFormat f = make_format(64, 48);
  const std::string ref = write_y4m("ref.y4m", f, 11, 0), dist = write_y4m("dist.y4m", f, 11, 1);
  for (const int threads : {2, 4}) {
    const Report want = scores(ref, dist, "", threads);
    ASSERT_FALSE(want.values.empty());
    for (const char* depth : {"2", "3", "8"})
      EXPECT_EQ(scores(ref, dist, depth, threads).values, want.values)
          << "depth " << depth << ", " << threads << " threads";
  }
}

TEST_F(PipelineDepth, ATruncatedInputIsRefusedAtEveryDepth) {
  const VideoFormat f = make_format(64, 48);
  const std::string ref = write_y4m("ref.y4m", f, 12, 0);
  const std::string dist = write("dist.y4m", y4m_bytes(f, make_frames(f, 9, 1)) + "FRAME\n");
  for (const char* depth : {"3", "8"}) {
    ::setenv("EXACTVQ_PIPELINE_DEPTH", depth, 1);
    expect_refused({"-r", ref, "-d", dist, "--threads", "2"}, kExitPicture, {"truncated frame 9"});
  }
}

}  // namespace
}  // namespace exactvq::clitest
