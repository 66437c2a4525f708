// VMAF end to end: every per-frame and pooled value of libvmaf's runs on
// ../shared/vectors through the library and through the command line
// (--precision max), the report's layout against a real `vmaf` report, several
// models, -n, and the refusals (pictures ADM cannot take, unnamed models,
// --subsample) with no output file left behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "app/score_run.h"
#include "cli/cli_fixture.h"
#include "cli/cli_test_util.h"
#include "core/error.h"
#include "libvmaf_vmaf_vectors.h"
#include "metrics/registry.h"
#include "metrics/vmaf/score_models.h"

namespace exactvq::clitest {
namespace {

using testing_vectors::load_vmaf_pairs;
using testing_vectors::same_bits;
using testing_vectors::stored_value;
using testing_vectors::VmafPair;

struct RunCase {
  const char* run;
  const char* model;
};
const RunCase kRuns[] = {{"vmaf_v0.6.1_nosimd", "vmaf_v0.6.1"},
                         {"vmaf_v0.6.1neg", "vmaf_v0.6.1neg"}};

// The keys of a run that libvmaf's SIMD gave differently from its C (the NEG
// run used its SIMD): "<frame>/<key>" for the frames simd_vs_c lists.
std::set<std::string> simd_only(const VmafPair& p, const std::string& run) {
  std::set<std::string> keys;
  if (run == "vmaf_v0.6.1_nosimd" || !p.info.contains("simd_vs_c")) return keys;
  for (const auto& d : p.info.at("simd_vs_c").at("differences")) {
    const std::string frame = std::to_string(d.at("frame").get<int>()) + "/";
    const std::string metric = d.at("metric").get<std::string>();
    keys.insert(frame + metric);
    keys.insert(frame + metric + "_egl_1");
  }
  return keys;
}

std::vector<std::string> raw_args(const VmafPair& p) {
  if (!p.raw.width) return {};
  return {"-w", std::to_string(*p.raw.width), "-h", std::to_string(*p.raw.height),
          "-p", chroma_name(*p.raw.chroma),   "-b", std::to_string(*p.raw.bitdepth)};
}

// The command line as given: no ssim default added (run_cli's), so that the
// default run is VMAF's.
RunResult run_exactvq(const std::vector<std::string>& args) {
  std::vector<std::string> argv{EXACTVQ_CLI_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv);
}

VmafPair named_pair(const std::string& name) {
  for (const VmafPair& p : load_vmaf_pairs())
    if (p.name == name) return p;
  ADD_FAILURE() << "no pair " << name;
  return {};
}

class VmafRun : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (!fs::exists(testing_vectors::kVmafVectors))
      GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  }
};

TEST_F(VmafRun, LibraryEqualsLibvmafOnEveryVector) {
  int compared = 0;
  for (const VmafPair& p : load_vmaf_pairs())
    for (const RunCase& rc : kRuns) {
      const nlohmann::json* frames = p.frames(rc.run);
      if (!frames) continue;
      RunOptions o;
      o.ref_path = p.ref.string();
      o.dist_path = p.dist.string();
      o.raw = p.raw;
      o.threads = 2;
      o.models = vmaf::make_score_models({std::string("version=") + rc.model});
      const ScoreReport r = score_videos(o);
      const auto skip = simd_only(p, rc.run);
      ASSERT_EQ(r.frame_numbers.size(), frames->size()) << p.name;
      for (size_t i = 0; i < frames->size(); ++i)
        for (const auto& [key, value] : (*frames)[i].items()) {
          if (key == "frameNum" || skip.count(std::to_string(i) + "/" + key)) continue;
          const auto column = std::find_if(r.features.begin(), r.features.end(),
                                           [&](const auto& f) { return f.name == key; });
          ASSERT_NE(column, r.features.end()) << p.name << " " << key;
          EXPECT_TRUE(same_bits(column->values[i], stored_value(value)))
              << p.name << " " << rc.run << " frame " << i << " " << key;
          ++compared;
        }
    }
  EXPECT_GT(compared, 1000);
}

TEST_F(VmafRun, CommandLineEqualsLibvmafFramesAndPooled) {
  int compared = 0;
  for (const VmafPair& p : load_vmaf_pairs())
    for (const RunCase& rc : kRuns) {
      const nlohmann::json& stored = p.info.at("runs").at(rc.run);
      const nlohmann::json* frames = p.frames(rc.run);
      std::vector<std::string> args{"-r",
                                    p.ref.string(),
                                    "-d",
                                    p.dist.string(),
                                    "--model",
                                    std::string("version=") + rc.model,
                                    "--json",
                                    "--precision",
                                    "max",
                                    "-o",
                                    path("out.json")};
      const auto raw = raw_args(p);
      args.insert(args.end(), raw.begin(), raw.end());
      fs::remove(path("out.json"));
      const RunResult r = run_cli(args);
      if (!frames) {
        // libvmaf crashed: pictures ADM cannot take are refused, naming the size.
        EXPECT_EQ(r.status, kExitPicture) << p.name << describe(r);
        EXPECT_NE(r.err.find("adm"), std::string::npos) << describe(r);
        EXPECT_FALSE(fs::exists(path("out.json")));
        continue;
      }
      ASSERT_EQ(r.status, 0) << p.name << describe(r);
      const Report got = parse_json(read_file(path("out.json")));
      const auto skip = simd_only(p, rc.run);
      std::vector<std::string> names;
      for (const auto& [key, value] : (*frames)[0].items())
        if (key != "frameNum") names.push_back(key);
      // libvmaf's key order: the file's keys are sorted, so compare as sets and
      // check the order against a real report in ReportLayoutEqualsLibvmafs.
      EXPECT_EQ(std::set<std::string>(got.names.begin(), got.names.end()),
                std::set<std::string>(names.begin(), names.end()))
          << p.name;
      for (size_t i = 0; i < frames->size(); ++i)
        for (const std::string& key : names) {
          if (skip.count(std::to_string(i) + "/" + key)) continue;
          EXPECT_EQ(bits(got.values.at(key)[i]), bits(stored_value((*frames)[i].at(key))))
              << p.name << " " << rc.run << " frame " << i << " " << key;
          ++compared;
        }
      // Pooled values of keys no SIMD difference touches.
      for (const auto& [key, pools] : stored.at("pooled").items()) {
        bool touched = false;
        for (const auto& s : skip) touched = touched || s.ends_with("/" + key);
        if (touched) continue;
        for (const char* pool : {"min", "max", "mean", "harmonic_mean"}) {
          EXPECT_EQ(bits(got.pooled.at(key).at(pool)), bits(stored_value(pools.at(pool))))
              << p.name << " " << rc.run << " pooled " << pool << " " << key;
          ++compared;
        }
      }
    }
  EXPECT_GT(compared, 1500);
}

// A real `vmaf` report and exactvq's for the same run differ only in the
// version and the fps, in every format.
TEST_F(VmafRun, ReportLayoutEqualsLibvmafs) {
  if (!fs::exists(testing_vectors::kLibvmafBinary))
    GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary
                 << ": layout check skipped";
  const VmafPair p = named_pair("p8_420_576x324_testsrc2_x264");
  for (const char* format : {"--xml", "--json", "--csv"})
    for (const std::vector<std::string>& models :
         {std::vector<std::string>{},
          {"--model", "version=vmaf_v0.6.1neg"},
          {"--model", "version=vmaf_v0.6.1:name=a", "--model", "version=vmaf_v0.6.1neg:name=b",
           "--feature", "psnr"}}) {
      std::vector<std::string> args{"-r", p.ref.string(), "-d", p.dist.string(), format, "-q"};
      args.insert(args.end(), models.begin(), models.end());
      std::vector<std::string> theirs{testing_vectors::kLibvmafBinary.string()};
      theirs.insert(theirs.end(), args.begin(), args.end());
      theirs.insert(theirs.end(), {"-o", path("libvmaf.out")});
      ASSERT_EQ(run_program(theirs).status, 0);
      args.insert(args.end(), {"-o", path("exactvq.out")});
      const RunResult r = run_exactvq(args);
      ASSERT_EQ(r.status, 0) << describe(r);
      const auto scrub = [](std::string text) {
        text =
            std::regex_replace(text, std::regex("version=\"[^\"]*\"|\"version\": \"[^\"]*\""), "V");
        return std::regex_replace(text, std::regex("fps=\"[^\"]*\"|\"fps\": [0-9.]+"), "F");
      };
      EXPECT_EQ(scrub(read_file(path("exactvq.out"))), scrub(read_file(path("libvmaf.out"))))
          << format << " " << fmt::format("{}", fmt::join(models, " "));
    }
}

TEST_F(VmafRun, NoPredictionScoresTheFeaturesOnly) {
  const VmafPair p = named_pair("p8_420_576x324_testsrc2_x264");
  const RunResult r = run_exactvq({"-r", p.ref.string(), "-d", p.dist.string(), "-m",
                                   "version=vmaf_v0.6.1", "-n", "--json", "-o", "-"});
  ASSERT_EQ(r.status, 0) << describe(r);
  const Report got = parse_json(r.out);
  EXPECT_EQ(got.values.count("vmaf"), 0u);
  EXPECT_EQ(got.values.count("integer_motion2"), 1u);
  EXPECT_EQ(got.values.count("integer_vif_scale3"), 1u);
}

// As libvmaf, -n takes away the default model: with no feature either, nothing to score
// (libvmaf writes an empty report; exactvq refuses, README).
TEST_F(VmafRun, NoPredictionAloneIsRefused) {
  const VmafPair p = named_pair("p8_420_576x324_testsrc2_x264");
  const RunResult r = run_exactvq({"-r", p.ref.string(), "-d", p.dist.string(), "-n", "--json"});
  EXPECT_EQ(r.status, kExitUsage) << describe(r);
  EXPECT_NE(r.err.find("nothing to score"), std::string::npos) << describe(r);
}

TEST_F(VmafRun, RefusalsLeaveNoOutput) {
  const VmafPair p = named_pair("p8_420_576x324_testsrc2_x264");
  const std::string out = path("never.json");
  struct Refusal {
    std::vector<std::string> args;
    int status;
    std::string needle;
  };
  const Refusal refusals[] = {
      // libvmaf's parser refuses models of one name; its run, the rest.
      {{"--model", "version=vmaf_v0.6.1", "--model", "version=vmaf_v0.6.1neg"}, kExitUsage, "name"},
      {{"--model", "version=vmaf_v9"}, kExitFailure, "vmaf_v9"},
      {{"--model", "path=" + path("missing.json")}, kExitFailure, "missing.json"},
      {{"--feature", "vif=vif_enhn_gain_limit=0.5"}, kExitFailure, "vif_enhn_gain_limit"},
      {{"--feature", "adm=adm_csf_mode=2:adm_norm_view_dist=4"},
       kExitFailure,
       "has CSF tables only for"},
      // VMAF v1 until its cambi feature is registered (model_v1_test.cpp checks both ways).
      {{"--model", "version=vmaf_v1.0.16_hfr_3d0h"}, kExitFailure, "feature 'cambi'"},
  };
  const std::vector<std::string> known = known_features();
  const bool has_cambi = std::find(known.begin(), known.end(), "cambi") != known.end();
  for (const Refusal& f : refusals) {
    if (has_cambi && f.needle == "feature 'cambi'") continue;
    std::vector<std::string> args{"-r", p.ref.string(), "-d", p.dist.string(), "-o", out};
    args.insert(args.end(), f.args.begin(), f.args.end());
    const RunResult r = run_exactvq(args);
    EXPECT_EQ(r.status, f.status) << describe(r);
    EXPECT_NE(r.err.find(f.needle), std::string::npos) << describe(r);
    EXPECT_FALSE(fs::exists(out)) << describe(r);
  }
  // Pictures under 33x33: ADM's definition takes none (libvmaf crashes on them).
  const VideoFormat small = make_format(32, 40);
  const std::string ref = write("small_ref.y4m", y4m_bytes(small, make_frames(small, 2, 0)));
  const std::string dist = write("small_dist.y4m", y4m_bytes(small, make_frames(small, 2, 1)));
  const RunResult r = run_cli({"-r", ref, "-d", dist, "--model", "version=vmaf_v0.6.1", "-o", out});
  EXPECT_EQ(r.status, kExitPicture) << describe(r);
  EXPECT_NE(r.err.find("32x40"), std::string::npos) << describe(r);
  EXPECT_FALSE(fs::exists(out));
}

// --subsample N: libvmaf computes motion on every frame and reports every Nth;
// so does exactvq (the other features score the reported frames only).
TEST_F(VmafRun, SubsampleEqualsLibvmaf) {
  if (!fs::exists(testing_vectors::kLibvmafBinary))
    GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary
                 << ": oracle skipped";
  const VideoFormat f = make_format(64, 48);
  const std::string ref = write("ref.y4m", y4m_bytes(f, make_frames(f, 8, 0)));
  const std::string dist = write("dist.y4m", y4m_bytes(f, make_frames(f, 8, 1)));
  for (const char* n : {"2", "3"})
    for (const char* frames : {"8", "7"}) {
      const std::vector<std::string> args{
          "-r",     ref,           "-d",   dist,        "--subsample",
          n,        "--frame_cnt", frames, "--feature", "psnr=enable_apsnr=true",
          "--json", "-q"};
      std::vector<std::string> theirs{"/usr/bin/env", "VMAF_JSON_FULL_PRECISION=1",
                                      testing_vectors::kLibvmafBinary.string(), "--cpumask",
                                      "0xffffffff"};
      theirs.insert(theirs.end(), args.begin(), args.end());
      theirs.insert(theirs.end(), {"-o", path("libvmaf.json")});
      ASSERT_EQ(run_program(theirs).status, 0);
      std::vector<std::string> ours = args;
      ours.insert(ours.end(), {"--precision", "max", "--model", "version=vmaf_v0.6.1", "-o",
                               path("exactvq.json")});
      const RunResult r = run_cli(ours);
      ASSERT_EQ(r.status, 0) << describe(r);
      const Report want = parse_json(read_file(path("libvmaf.json")));
      const Report got = parse_json(read_file(path("exactvq.json")));
      EXPECT_EQ(got.frames, want.frames) << "--subsample " << n;
      EXPECT_EQ(got.names, want.names);
      for (const auto& [name, values] : want.values)
        for (size_t i = 0; i < values.size(); ++i)
          EXPECT_EQ(bits(got.values.at(name).at(i)), bits(values[i]))
              << "--subsample " << n << " --frame_cnt " << frames << " frame " << i << " " << name;
      for (const auto& [name, pools] : want.pooled)
        for (const auto& [pool, value] : pools)
          EXPECT_EQ(bits(got.pooled.at(name).at(pool)), bits(value)) << name << " " << pool;
    }
}

TEST_F(VmafRun, AnyThreadCountGivesTheSameBits) {
  const VideoFormat f = make_format(96, 54, ChromaFormat::k420, 10);
  const std::string ref = write("ref.y4m", y4m_bytes(f, make_frames(f, 7, 0)));
  const std::string dist = write("dist.y4m", y4m_bytes(f, make_frames(f, 7, 1)));
  std::string first;
  for (const char* threads : {"1", "2", "5"}) {
    const RunResult r = run_cli({"-r", ref, "-d", dist, "--model", "version=vmaf_v0.6.1",
                                 "--threads", threads, "--csv", "--precision", "max", "-o", "-"});
    ASSERT_EQ(r.status, 0) << describe(r);
    if (first.empty()) first = r.out;
    EXPECT_EQ(r.out, first) << threads << " threads";
  }
}

}  // namespace
}  // namespace exactvq::clitest
