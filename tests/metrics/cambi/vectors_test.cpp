// cambi on ../shared/vectors: every value libvmaf 3.2.0's plain C gave in the
// catalogue's `cambi` and `cambi_full_ref` runs (every key, every frame and
// the pooled values), bit for bit, through the library and the command line;
// where libvmaf refused (pictures under 216 samples in both sides), exactvq's
// error naming the feature and the size.
#include <gtest/gtest.h>

#include <set>

#include "cambi_testing.h"
#include "cli/cli_fixture.h"
#include "core/error.h"
#include "metrics/vif/vif_clips.h"
#include "output/report.h"

namespace exactvq::cambi {
namespace {

namespace fs = std::filesystem;
using testing_vectors::same_bits;
using testing_vectors::stored_value;

struct CatalogueRun {
  const char* name;  // in the catalogue
  const char* spec;  // exactvq's --feature
};
const CatalogueRun kRuns[] = {{"cambi", "cambi"}, {"cambi_full_ref", "cambi=full_ref=true"}};

TEST(CambiVectors, LibraryEqualsLibvmafBitForBit) {
  if (!fs::exists(testing::kCatalogue)) GTEST_SKIP() << "no catalogue at " << testing::kCatalogue;
  int compared = 0, differing = 0, refused = 0, unstable = 0;
  for (const auto& pair : testing::load_catalogue_pairs()) {
    const std::vector<Picture> refs = vif_testing::read_pictures(pair.ref, pair.raw);
    const std::vector<Picture> dists = vif_testing::read_pictures(pair.dist, pair.raw);
    const VideoFormat& f = refs.at(0).format;
    for (const CatalogueRun& run : kRuns) {
      const nlohmann::json& stored = pair.info.at("runs").at(run.name);
      if (stored.at("rc").get<int>() != 0) {
        // libvmaf refused: so does exactvq, naming the feature and the size.
        try {
          testing::cpu_feature(run.spec, f);
          ADD_FAILURE() << pair.name << " " << run.name << ": scored where libvmaf refused";
        } catch (const InputError& e) {
          const std::string what = e.what();
          EXPECT_NE(what.find("cambi"), std::string::npos) << what;
          EXPECT_NE(what.find(fmt::format("{}x{}", f.width, f.height)), std::string::npos) << what;
        }
        ++refused;
        continue;
      }
      if (!stored.at("perturb_stable").get<bool>()) {
        ++unstable;
        continue;
      }
      auto feature = testing::cpu_feature(run.spec, f);
      const auto mine = testing::frame_values(*feature, refs, dists);
      const nlohmann::json& frames = stored.at("frames");
      ASSERT_EQ(frames.size(), mine.size()) << pair.name;
      const std::vector<std::string>& names = feature->outputs();
      for (size_t i = 0; i < mine.size(); ++i) {
        std::set<std::string> keys;
        for (const auto& [key, value] : frames[i].items())
          if (key != "frameNum") keys.insert(key);
        EXPECT_EQ(keys, std::set<std::string>(names.begin(), names.end())) << pair.name;
        for (size_t n = 0; n < names.size(); ++n, ++compared) {
          const bool same = same_bits(mine[i][n], stored_value(frames[i].at(names[n])));
          differing += !same;
          EXPECT_TRUE(same) << pair.name << " " << run.name << " frame " << i << " " << names[n]
                            << ": " << mine[i][n] << " vs libvmaf " << frames[i].at(names[n]);
        }
      }
      for (size_t n = 0; n < names.size(); ++n) {
        std::vector<double> column;
        for (const auto& row : mine) column.push_back(row[n]);
        const Pooled p = pool(column);
        const nlohmann::json& want = stored.at("pooled").at(names[n]);
        const std::pair<const char*, double> pools[] = {
            {"min", p.min}, {"max", p.max}, {"mean", p.mean}, {"harmonic_mean", p.harmonic_mean}};
        for (const auto& [key, value] : pools) {
          const bool same = same_bits(value, stored_value(want.at(key)));
          differing += !same;
          ++compared;
          EXPECT_TRUE(same) << pair.name << " " << run.name << " pooled " << key << " " << names[n];
        }
      }
    }
  }
  std::printf(
      "cambi vectors: %d values compared, %d differing; %d runs refused as libvmaf refused, %d "
      "unstable skipped\n",
      compared, differing, refused, unstable);
  EXPECT_EQ(differing, 0);
  EXPECT_GE(compared, 200);
  EXPECT_EQ(refused, 14);  // the seven pairs under 216 samples, both runs
}

class CambiVectorsCli : public clitest::CliTest {};

TEST_F(CambiVectorsCli, CommandLineEqualsLibvmafFramesAndPooled) {
  if (!fs::exists(testing::kCatalogue)) GTEST_SKIP() << "no catalogue at " << testing::kCatalogue;
  int compared = 0;
  for (const auto& pair : testing::load_catalogue_pairs())
    for (const CatalogueRun& run : kRuns) {
      const nlohmann::json& stored = pair.info.at("runs").at(run.name);
      std::vector<std::string> args{"-r",
                                    pair.ref.string(),
                                    "-d",
                                    pair.dist.string(),
                                    "--feature",
                                    run.spec,
                                    "--json",
                                    "--precision",
                                    "max",
                                    "-o",
                                    path("out.json")};
      if (pair.raw.width)
        for (const std::string& a : {std::string("-w"), std::to_string(*pair.raw.width),
                                     std::string("-h"), std::to_string(*pair.raw.height),
                                     std::string("-p"), std::string(chroma_name(*pair.raw.chroma)),
                                     std::string("-b"), std::to_string(*pair.raw.bitdepth)})
          args.push_back(a);
      fs::remove(path("out.json"));
      const clitest::RunResult r = clitest::run_cli(args);
      if (stored.at("rc").get<int>() != 0) {
        EXPECT_NE(r.status, 0) << pair.name << clitest::describe(r);
        EXPECT_NE(r.err.find("cambi"), std::string::npos) << clitest::describe(r);
        EXPECT_FALSE(fs::exists(path("out.json")));
        continue;
      }
      if (!stored.at("perturb_stable").get<bool>()) continue;
      ASSERT_EQ(r.status, 0) << pair.name << clitest::describe(r);
      const clitest::Report got = clitest::parse_json(clitest::read_file(path("out.json")));
      const nlohmann::json& frames = stored.at("frames");
      for (size_t i = 0; i < frames.size(); ++i)
        for (const auto& [key, value] : frames[i].items()) {
          if (key == "frameNum") continue;
          ASSERT_TRUE(got.values.count(key)) << pair.name << " " << key;
          EXPECT_EQ(clitest::bits(got.values.at(key)[i]), clitest::bits(stored_value(value)))
              << pair.name << " " << run.name << " frame " << i << " " << key;
          ++compared;
        }
      for (const auto& [key, pools] : stored.at("pooled").items())
        for (const char* p : {"min", "max", "mean", "harmonic_mean"}) {
          EXPECT_EQ(clitest::bits(got.pooled.at(key).at(p)),
                    clitest::bits(stored_value(pools.at(p))))
              << pair.name << " " << run.name << " pooled " << p << " " << key;
          ++compared;
        }
    }
  std::printf("cambi vectors through the command line: %d values compared\n", compared);
  EXPECT_GE(compared, 200);
}

// Bad options (255, as libvmaf refuses them when it sets the run up) and pictures cambi has no
// value for (234): a message naming them, no output.
TEST_F(CambiVectorsCli, RefusalsNameWhatAndLeaveNoOutput) {
  const VideoFormat f = clitest::make_format(216, 64);
  const std::string ref = write_y4m("ref.y4m", f, 2, 0), dist = write_y4m("dist.y4m", f, 2, 1);
  expect_refused({"-r", ref, "-d", dist, "--feature", "cambi=window_size=200"}, kExitFailure,
                 {"cambi", "window_size=200"});
  expect_refused({"-r", ref, "-d", dist, "--feature", "cambi=eotf=hlg"}, kExitFailure,
                 {"cambi", "eotf=hlg"});
  const VideoFormat sd = clitest::make_format(400, 300);
  const std::string r1 = write_y4m("ref1.y4m", sd, 1, 0), d1 = write_y4m("dist1.y4m", sd, 1, 1);
  expect_refused({"-r", r1, "-d", d1, "--feature", "cambi=enc_width=200:enc_height=200"},
                 kExitPicture, {"cambi", "200x200"});
  const VideoFormat tiny = clitest::make_format(64, 48);
  const std::string r2 = write_y4m("ref2.y4m", tiny, 1, 0), d2 = write_y4m("dist2.y4m", tiny, 1, 1);
  expect_refused({"-r", r2, "-d", d2, "--feature", "cambi"}, kExitPicture,
                 {"cambi", "64x48", "216"});
  const VideoFormat flat = clitest::make_format(2000, 20);
  const std::string r3 = write_y4m("ref3.y4m", flat, 1, 0), d3 = write_y4m("dist3.y4m", flat, 1, 1);
  expect_refused({"-r", r3, "-d", d3, "--feature", "cambi"}, kExitPicture,
                 {"cambi", "2000x20", "window"});
}

// heatmaps_path through the command line: the five files of every frame, the
// bytes libvmaf writes (full_ref: the distorted pictures only).
TEST_F(CambiVectorsCli, HeatmapsEqualLibvmafs) {
  if (!fs::exists(testing_vectors::kLibvmafBinary))
    GTEST_SKIP() << "no libvmaf binary at " << testing_vectors::kLibvmafBinary;
  const fs::path pair = testing::kCatalogue.parent_path() / "p10_420_576x324_testsrc2_x264";
  const std::string ref = (pair / "ref.y4m").string(), dist = (pair / "dist.y4m").string();
  const std::string spec = "cambi=full_ref=true:heatmaps_path=";
  const clitest::RunResult r = clitest::run_cli(
      {"-r", ref, "-d", dist, "--feature", spec + path("mine"), "-o", path("out.xml")});
  ASSERT_EQ(r.status, 0) << clitest::describe(r);
  const std::string cmd = fmt::format(
      "'{}' -r '{}' -d '{}' --feature '{}' --no_prediction --cpumask 0xffffffff -o '{}' -q "
      ">/dev/null 2>&1",
      testing_vectors::kLibvmafBinary.string(), ref, dist, spec + path("libvmaf"),
      path("libvmaf.xml"));
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const std::set<std::string> names = clitest::list_dir(path("libvmaf"));
  EXPECT_EQ(names.size(), 5u);
  EXPECT_EQ(clitest::list_dir(path("mine")), names);
  for (const std::string& name : names) {
    const std::string want = clitest::read_file(fs::path(path("libvmaf")) / name);
    EXPECT_GT(want.size(), 0u) << name;
    EXPECT_TRUE(clitest::read_file(fs::path(path("mine")) / name) == want) << name;
  }
}

}  // namespace
}  // namespace exactvq::cambi
