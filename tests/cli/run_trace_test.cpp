// EXACTVQ_TRACE=FILE: a run writes its timeline there (core/run_trace.h): the reads,
// the main thread's loop, and each VMAF feature's batch and frame tasks under the
// name the model asks for it by; the scores are those of a run without it, and a
// run that fails writes no trace.
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_fixture.h"
#include "cli/exit_status.h"

namespace exactvq::clitest {
namespace {

class RunTraceCli : public CliTest {
 protected:
  void TearDown() override { ::unsetenv("EXACTVQ_TRACE"); }
};

TEST_F(RunTraceCli, WritesTheTimelineAndKeepsTheScores) {
  const VideoFormat f = make_format(64, 48);
  const std::string ref = write_y4m("ref.y4m", f, 9, 0), dist = write_y4m("dist.y4m", f, 9, 1);
  // run_program: the CLI's own default (VMAF v0.6.1), not the tests' ssim.
  const auto run = [&](const std::string& out) {
    return run_program({EXACTVQ_CLI_PATH, "-r", ref, "-d", dist, "--json", "--precision", "max",
                        "--threads", "3", "-o", out});
  };
  const RunResult plain = run(path("plain.json"));
  ASSERT_EQ(plain.status, 0) << describe(plain);
  const std::string trace = path("trace.json");
  ::setenv("EXACTVQ_TRACE", trace.c_str(), 1);
  const RunResult traced = run(path("traced.json"));
  ASSERT_EQ(traced.status, 0) << describe(traced);
  EXPECT_EQ(parse_json(read_file(path("traced.json"))).values,
            parse_json(read_file(path("plain.json"))).values);

  const nlohmann::json t = nlohmann::json::parse(read_file(trace));
  std::multiset<std::string> names;
  for (const auto& e : t["traceEvents"])
    if (e["ph"] == "X") names.insert(e["name"].get<std::string>());
  for (const char* name : {"read", "wait for read", "submit", "collect", "vif", "adm", "motion"})
    EXPECT_TRUE(names.count(name)) << name << " missing from " << trace;
  // Batches of 1, 3, 3 and 2 frames (the first of one, then one frame a thread):
  // vif's spans are its 4 batch tasks and the 8 frame tasks of the batches of
  // more than one (a loop of one runs inline).
  EXPECT_EQ(names.count("submit"), 4u);
  EXPECT_EQ(names.count("vif"), 4u + 8u);
}

TEST_F(RunTraceCli, AFailedRunWritesNoTrace) {
  const VideoFormat f = make_format(64, 48);
  const std::string ref = write_y4m("ref.y4m", f, 4, 0);
  const std::string dist = write("dist.y4m", y4m_bytes(f, make_frames(f, 4, 1)) + "FRAME\n");
  const std::string trace = path("trace.json");
  ::setenv("EXACTVQ_TRACE", trace.c_str(), 1);
  expect_refused({"-r", ref, "-d", dist, "--threads", "2"}, kExitPicture, {"truncated frame 4"});
  EXPECT_FALSE(std::filesystem::exists(trace));
}

}  // namespace
}  // namespace exactvq::clitest
