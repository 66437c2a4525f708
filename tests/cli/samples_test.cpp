// samples/: the committed demo pair scores in a realistic range, and make_sample
// regenerates it byte for byte.
#include <regex>

#include "cli/cli_fixture.h"

namespace exactvq::clitest {
namespace {

const std::string kSamples = EXACTVQ_SAMPLES_DIR;

class Samples : public CliTest {};

TEST_F(Samples, DemoPairScoresInRealisticRange) {
  const std::string ref = kSamples + "/ref.y4m", dist = kSamples + "/dist.y4m";
  if (!fs::exists(ref) || !fs::exists(dist)) GTEST_SKIP() << "no sample pair in " << kSamples;
  EXPECT_TRUE(read_file(ref).starts_with("YUV4MPEG2 W176 H144 "));
  const RunResult r = run_cli(
      {"-r", ref, "-d", dist, "--json", "--feature", "ssim=chroma=true", "-o", path("o.json")});
  ASSERT_EQ(r.status, 0) << describe(r);
  const Report json = parse_json(read_file(path("o.json")));
  EXPECT_EQ(json.frames.size(), 10u);
  for (const char* name : {"ssim", "ssim_cb", "ssim_cr"}) {
    ASSERT_EQ(json.values.count(name), 1u) << name;
    for (double v : json.values.at(name)) {
      EXPECT_GT(v, 0.85) << name;
      EXPECT_LT(v, 0.97) << name;
    }
  }
  const RunResult s = run_cli({"-r", ref, "-d", dist});
  EXPECT_EQ(s.status, 0) << describe(s);
  EXPECT_EQ(s.out, "ssim: 0.933136\n");
}

TEST_F(Samples, MakeSampleRegeneratesTheCommittedPair) {
  const std::string tool = EXACTVQ_MAKE_SAMPLE_PATH;
  if (!fs::exists(tool)) GTEST_SKIP() << tool << " is not built (tools/ is not part of this build)";
  const RunResult r = run_program({tool, dir_.string()});
  ASSERT_EQ(r.status, 0) << describe(r);
  for (const char* name : {"ref.y4m", "dist.y4m"})
    EXPECT_TRUE(read_file(dir_ / name) == read_file(fs::path(kSamples) / name))
        << name << " differs from samples/" << name;
  // Written through temporary names that are gone afterwards.
  EXPECT_EQ(list_dir(dir_), (std::set<std::string>{"dist.y4m", "ref.y4m"}));

  const RunResult usage = run_program({tool});
  EXPECT_EQ(usage.status, 2) << describe(usage);
  EXPECT_NE(usage.err.find("usage: make_sample OUT_DIR"), std::string::npos);
  const RunResult missing = run_program({tool, path("missing")});
  EXPECT_EQ(missing.status, 1) << describe(missing);
}

}  // namespace
}  // namespace exactvq::clitest
