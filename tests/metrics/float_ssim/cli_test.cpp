// float_ssim and float_ms_ssim through the command line: exactvq -r REF -d DIST
// --feature float_ssim --feature float_ms_ssim --precision max --json equals
// libvmaf's stored values on every public pair, and the AOM CTC setting; the
// pairs MS-SSIM refuses exit 1 naming the feature and leave no output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "cli/cli_fixture.h"
#include "cli/cli_test_util.h"
#include "metrics/float_ssim/float_ssim_vectors.h"

namespace exactvq::clitest {
namespace {

// libvmaf's float_ms_ssim fails on pictures under 176 pixels a side with a code of its own, 1,
// which its `vmaf` exits with (README, Usage).
constexpr int kMsSsimTooSmall = 1;

using testing_vectors::load_vmaf_pairs;
using testing_vectors::stored_value;
using testing_vectors::VmafPair;

std::vector<std::string> raw_args(const VmafPair& p) {
  if (!p.raw.width) return {};
  return {"-w", std::to_string(*p.raw.width), "-h", std::to_string(*p.raw.height),
          "-p", chroma_name(*p.raw.chroma),   "-b", std::to_string(*p.raw.bitdepth)};
}

class FloatSsimCli : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (!fs::exists(testing_vectors::kVmafVectors))
      GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  }

  RunResult run(const VmafPair& p, const std::vector<std::string>& features,
                bool frame_cnt_1 = false) {
    std::vector<std::string> argv{EXACTVQ_CLI_PATH, "-r", p.ref.string(), "-d", p.dist.string()};
    for (const std::string& f : features) argv.insert(argv.end(), {"--feature", f});
    argv.insert(argv.end(), {"-n", "--precision", "max", "--json", "-o", path("out.json")});
    if (frame_cnt_1) argv.insert(argv.end(), {"--frame_cnt", "1"});
    const auto raw = raw_args(p);
    argv.insert(argv.end(), raw.begin(), raw.end());
    fs::remove(path("out.json"));
    return run_program(argv);
  }

  Report report() {
    return parse_json(testing_vectors::signed_zeros_kept(read_file(path("out.json"))));
  }

  bool same(const Report& got, double mine, const std::string& where, const nlohmann::json& want) {
    if (want.is_null()) return std::count(got.json_nulls.begin(), got.json_nulls.end(), where) == 1;
    return bits(mine) == bits(stored_value(want));
  }

  // Every stored frame of `key`, and its pooled values, against the report's.
  void compare(const VmafPair& p, const Report& got, const float_ssim::testing::StoredRun& stored,
               const std::string& key, const std::string& what) {
    ASSERT_TRUE(got.values.count(key)) << p.name << " " << what << ": no " << key;
    ASSERT_EQ(got.values.at(key).size(), stored.frames().size()) << p.name << " " << what;
    for (const nlohmann::json& frame : stored.frames()) {
      const size_t i = frame.at("frameNum").get<size_t>();
      ASSERT_LT(i, got.values.at(key).size()) << p.name;
      const nlohmann::json& want = frame.at(key);
      const bool ok = same(got, got.values.at(key)[i], std::to_string(i) + "/" + key, want);
      ++compared;
      differing += !ok;
      EXPECT_TRUE(ok) << p.name << " " << what << " frame " << i << " " << key << ": "
                      << got.values.at(key)[i] << " vs libvmaf " << want;
    }
    for (const char* pool : {"min", "max", "mean", "harmonic_mean"}) {
      const nlohmann::json& want = stored.node->at("pooled").at(key).at(pool);
      ASSERT_TRUE(got.pooled.count(key) && got.pooled.at(key).count(pool))
          << p.name << " " << key << " " << pool;
      const double mine = got.pooled.at(key).at(pool);
      const bool ok = same(got, mine, "pooled/" + key + "/" + pool, want);
      ++compared_pooled;
      differing += !ok;
      EXPECT_TRUE(ok) << p.name << " " << what << " pooled " << pool << " " << key << ": " << mine
                      << " vs libvmaf " << want;
    }
  }

  int compared_pooled = 0;
  int compared = 0, differing = 0;
};

TEST_F(FloatSsimCli, CommandLineEqualsLibvmafOnEveryVector) {
  int refused = 0;
  for (const VmafPair& p : load_vmaf_pairs()) {
    namespace t = float_ssim::testing;
    // The default run: both features in one command.
    const t::StoredRun ssim = t::stored_run(p, "float_ssim_ms_ssim", "float_ssim");
    const t::StoredRun ms = t::stored_run(p, "float_ssim_ms_ssim", "float_ms_ssim");
    if (ms) {
      const RunResult r = run(p, {"float_ssim", "float_ms_ssim"}, ms.frame_cnt_1);
      ASSERT_EQ(r.status, 0) << p.name << describe(r);
      const Report got = report();
      compare(p, got, ssim, "float_ssim", "defaults");
      compare(p, got, ms, "float_ms_ssim", "defaults");
    } else {
      // MS-SSIM refuses the size: exit 1 (libvmaf's), the feature and size named, no report.
      RunResult r = run(p, {"float_ssim", "float_ms_ssim"});
      EXPECT_EQ(r.status, kMsSsimTooSmall) << p.name << describe(r);
      EXPECT_NE(r.err.find("float_ms_ssim"), std::string::npos) << describe(r);
      EXPECT_NE(r.err.find("176"), std::string::npos) << describe(r);
      EXPECT_FALSE(fs::exists(path("out.json"))) << p.name;
      ++refused;
      // float_ssim alone, as libvmaf's probe ran it.
      if (ssim) {
        r = run(p, {"float_ssim"}, ssim.frame_cnt_1);
        ASSERT_EQ(r.status, 0) << p.name << describe(r);
        compare(p, report(), ssim, "float_ssim", "float_ssim alone");
      }
    }
    // The AOM CTC setting.
    if (const t::StoredRun ctc = t::stored_run(p, "float_ssim_ctc", "float_ssim")) {
      const RunResult r =
          run(p, {"float_ssim=scale=1:enable_db=true:clip_db=true"}, ctc.frame_cnt_1);
      ASSERT_EQ(r.status, 0) << p.name << describe(r);
      compare(p, report(), ctc, "float_ssim", "ctc");
    }
  }
  std::printf(
      "float_ssim command line: %d per-frame and %d pooled values compared, %d differing; %d "
      "MS-SSIM "
      "refusals\n",
      compared, compared_pooled, differing, refused);
  EXPECT_EQ(differing, 0);
  EXPECT_GE(compared, 100);
  EXPECT_EQ(refused, 7);
}

// Bad options, sizes and depths: libvmaf's status (README, Usage), a message naming them, no
// output.
TEST_F(FloatSsimCli, RefusalsNameWhatAndLeaveNoOutput) {
  const VideoFormat small = make_format(64, 48);
  const std::string ref = write_y4m("ref.y4m", small, 2, 0),
                    dist = write_y4m("dist.y4m", small, 2, 1);
  expect_refused({"-r", ref, "-d", dist, "--feature", "float_ssim=scale=11"}, kExitFailure,
                 {"float_ssim", "scale=11"});
  expect_refused({"-r", ref, "-d", dist, "--feature", "float_ssim=enable_db=maybe"}, kExitFailure,
                 {"enable_db=maybe"});
  expect_refused({"-r", ref, "-d", dist, "--feature", "float_ms_ssim=scale=2"}, kExitFailure,
                 {"float_ms_ssim", "scale"});
  // Status 1 here is libvmaf's extractor's, not a usage error: no hint to --help.
  const RunResult ms =
      run_cli({"-r", ref, "-d", dist, "--feature", "float_ms_ssim", "-o", path("ms.json")});
  EXPECT_EQ(ms.status, kMsSsimTooSmall) << describe(ms);
  EXPECT_NE(ms.err.find("64x48"), std::string::npos) << describe(ms);
  EXPECT_NE(ms.err.find("176"), std::string::npos) << describe(ms);
  EXPECT_EQ(ms.out, "") << describe(ms);
  EXPECT_FALSE(fs::exists(path("ms.json")));
  const VideoFormat narrow = make_format(3, 48, ChromaFormat::k444);
  const std::string r3 = write_y4m("ref3.y4m", narrow, 1, 0),
                    d3 = write_y4m("dist3.y4m", narrow, 1, 1);
  expect_refused({"-r", r3, "-d", d3, "--feature", "float_ssim=scale=10"}, kExitPicture,
                 {"3x48", "scale=10"});
  const VideoFormat nine = make_format(200, 200, ChromaFormat::k420, 9);
  const std::string r9 = write("ref9.yuv", raw_bytes(nine, make_frames(nine, 1, 0)));
  const std::string d9 = write("dist9.yuv", raw_bytes(nine, make_frames(nine, 1, 1)));
  for (const char* feature : {"float_ssim", "float_ms_ssim"})
    expect_refused({"-r", r9, "-d", d9, "-w", "200", "-h", "200", "-p", "420", "-b", "9",
                    "--feature", feature},
                   kExitPicture, {feature, "bit depth 9"});
}

// Frames side by side on the pool: any thread count gives one thread's bits.
TEST_F(FloatSsimCli, AnyThreadCountGivesTheSameBits) {
  const auto pairs = load_vmaf_pairs();
  const auto p = std::find_if(pairs.begin(), pairs.end(), [](const VmafPair& v) {
    return v.name == "p10_420_576x324_testsrc2_x264";
  });
  ASSERT_NE(p, pairs.end());
  std::vector<std::string> reports;
  for (const char* threads : {"1", "2", "5"}) {
    const RunResult r =
        run_program({EXACTVQ_CLI_PATH, "-r", p->ref.string(), "-d", p->dist.string(), "--feature",
                     "float_ssim=enable_lcs=true", "--feature", "float_ms_ssim=enable_lcs=true",
                     "-n", "--threads", threads, "--precision", "max", "--csv", "-o", "-"});
    ASSERT_EQ(r.status, 0) << describe(r);
    reports.push_back(r.out);
  }
  EXPECT_EQ(reports[0], reports[1]);
  EXPECT_EQ(reports[0], reports[2]);
  EXPECT_NE(reports[0].find("float_ms_ssim_s_scale4"), std::string::npos) << reports[0];
}

}  // namespace
}  // namespace exactvq::clitest
