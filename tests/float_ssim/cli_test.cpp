// float_ssim and float_ms_ssim through the command line: exactvq -r REF -d DIST
// --feature float_ssim --feature float_ms_ssim --precision max --json equals
// libvmaf's stored values on every public pair, and the AOM CTC setting; the
// pairs MS-SSIM refuses exit 1 naming the feature and leave no output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "cli/cli_fixture.h"
#include "cli/cli_test_util.h"
#include "float_ssim/float_ssim_vectors.h"

namespace exactvq::clitest {
namespace {

using testing_vectors::load_vmaf_pairs;
using testing_vectors::stored_value;
using testing_vectors::VmafPair;

std::vector<std::string> raw_args(const VmafPair& p) {
  if (!p.raw.width) return {};
  return {"-w", std::to_string(*p.raw.width), "-h", std::to_string(*p.raw.height), "-p",
          chroma_name(*p.raw.chroma), "-b", std::to_string(*p.raw.bitdepth)};
}

class FloatSsimCli : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (!fs::exists(testing_vectors::kVmafVectors))
      GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  }

  RunResult run(const VmafPair& p, const std::vector<std::string>& features) {
    std::vector<std::string> argv{EXACTVQ_CLI_PATH, "-r", p.ref.string(), "-d", p.dist.string()};
    for (const std::string& f : features) argv.insert(argv.end(), {"--feature", f});
    argv.insert(argv.end(), {"--precision", "max", "--json", "-o", path("out.json")});
    const auto raw = raw_args(p);
    argv.insert(argv.end(), raw.begin(), raw.end());
    fs::remove(path("out.json"));
    return run_program(argv);
  }

  // Every stored frame of `key` against the report's; counts into compared/differing.
  void compare(const VmafPair& p, const Report& got, const nlohmann::json& frames, const std::string& key,
               const std::string& what) {
    ASSERT_TRUE(got.values.count(key)) << p.name << " " << what << ": no " << key;
    for (const nlohmann::json& frame : frames) {
      const size_t i = frame.at("frameNum").get<size_t>();
      ASSERT_LT(i, got.values.at(key).size()) << p.name;
      const nlohmann::json& want = frame.at(key);
      bool same;
      if (want.is_null())
        same = std::count(got.json_nulls.begin(), got.json_nulls.end(), std::to_string(i) + "/" + key) == 1;
      else
        same = bits(got.values.at(key)[i]) == bits(stored_value(want));
      ++compared;
      differing += !same;
      EXPECT_TRUE(same) << p.name << " " << what << " frame " << i << " " << key << ": "
                        << got.values.at(key)[i] << " vs libvmaf " << want;
    }
  }

  int compared = 0, differing = 0;
};

TEST_F(FloatSsimCli, CommandLineEqualsLibvmafOnEveryVector) {
  int refused = 0;
  for (const VmafPair& p : load_vmaf_pairs()) {
    namespace t = float_ssim::testing;
    // The default run: both features in one command.
    const nlohmann::json* ssim = t::stored_frames(p, "float_ssim_ms_ssim", "float_ssim");
    const nlohmann::json* ms = t::stored_frames(p, "float_ssim_ms_ssim", "float_ms_ssim");
    RunResult r = run(p, {"float_ssim", "float_ms_ssim"});
    if (ms) {
      ASSERT_EQ(r.status, 0) << p.name << describe(r);
      const Report got = parse_json(testing_vectors::signed_zeros_kept(read_file(path("out.json"))));
      compare(p, got, *ssim, "float_ssim", "defaults");
      compare(p, got, *ms, "float_ms_ssim", "defaults");
    } else {
      // MS-SSIM refuses the size: exit 1, the feature and size named, no report.
      EXPECT_EQ(r.status, 1) << p.name << describe(r);
      EXPECT_NE(r.err.find("float_ms_ssim"), std::string::npos) << describe(r);
      EXPECT_NE(r.err.find("176"), std::string::npos) << describe(r);
      EXPECT_FALSE(fs::exists(path("out.json"))) << p.name;
      ++refused;
      // float_ssim alone, as libvmaf's probe ran it.
      if (ssim) {
        r = run(p, {"float_ssim"});
        ASSERT_EQ(r.status, 0) << p.name << describe(r);
        compare(p, parse_json(testing_vectors::signed_zeros_kept(read_file(path("out.json")))), *ssim, "float_ssim", "float_ssim alone");
      }
    }
    // The AOM CTC setting.
    if (const nlohmann::json* ctc = t::stored_frames(p, "float_ssim_ctc", "float_ssim")) {
      r = run(p, {"float_ssim=scale=1:enable_db=true:clip_db=true"});
      ASSERT_EQ(r.status, 0) << p.name << describe(r);
      compare(p, parse_json(testing_vectors::signed_zeros_kept(read_file(path("out.json")))), *ctc, "float_ssim", "ctc");
    }
  }
  std::printf("float_ssim command line: %d values compared, %d differing; %d MS-SSIM refusals\n", compared,
              differing, refused);
  EXPECT_EQ(differing, 0);
  EXPECT_GE(compared, 100);
  EXPECT_EQ(refused, 7);
}

}  // namespace
}  // namespace exactvq::clitest
