// ciede against libvmaf's catalogue (../shared/vectors/libvmaf_catalogue_scores.json,
// run "ciede"): every per-frame and pooled value bit for bit, through the command
// line and through the library with several threads, wherever libvmaf's run is
// its definition (rc 0 and perturb_stable). Where libvmaf crashed (odd 4:2:0
// sizes, whose chroma its reader misframes) or read memory it never wrote (4:2:0
// 1x1, whose chroma planes it allocates empty), exactvq scores the pictures as
// the definition says (chroma of pixel (x, y) at (x/2, y/2)): checked against
// the scalar reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "cli/cli_test_util.h"
#include "core/thread_pool.h"
#include "io/video_source.h"
#include "libvmaf_vmaf_vectors.h"
#include "metrics/ciede/reference.h"
#include "metrics/registry.h"

namespace exactvq::ciede {
namespace {

namespace fs = std::filesystem;
using clitest::bits;
using testing_vectors::kCatalogueVectors;
using testing_vectors::VmafPair;

// A stored value: null is libvmaf's +inf (identical pictures), as the JSON parser
// of the command-line tests reads exactvq's null.
double stored(const nlohmann::json& v) {
  return v.is_null() ? std::numeric_limits<double>::infinity() : v.get<double>();
}

std::vector<std::string> raw_args(const VmafPair& p) {
  if (!p.raw.width) return {};
  return {"-w", std::to_string(*p.raw.width), "-h", std::to_string(*p.raw.height),
          "-p", chroma_name(*p.raw.chroma),   "-b", std::to_string(*p.raw.bitdepth)};
}

// Each frame's ciede2000 through the library: the feature on `threads` threads.
std::vector<double> library_scores(const VmafPair& p, int threads) {
  auto ref = open_video(p.ref.string(), p.raw);
  auto dist = open_video(p.dist.string(), p.raw);
  ThreadPool pool(threads);
  auto feature =
      make_feature(parse_feature_spec("ciede"), FeatureContext{ref->format(), &pool, nullptr});
  std::vector<double> scores;
  Picture a, b;
  while (ref->read_frame(a) && dist->read_frame(b)) {
    double s = 0;
    feature->extract(a, b, {&s, 1});
    scores.push_back(s);
  }
  return scores;
}

// The same frames by the scalar reference, one thread.
std::vector<double> reference_scores(const VmafPair& p) {
  auto ref = open_video(p.ref.string(), p.raw);
  auto dist = open_video(p.dist.string(), p.raw);
  std::vector<double> scores;
  Picture a, b;
  while (ref->read_frame(a) && dist->read_frame(b))
    scores.push_back(ciede_score(delta_e_sum_reference(a, b), a.format.width, a.format.height));
  return scores;
}

class CiedeCatalogue : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kCatalogueVectors))
      GTEST_SKIP() << "no shared vectors at " << kCatalogueVectors << ": catalogue skipped";
  }
};

TEST_F(CiedeCatalogue, CommandLineAndLibraryEqualLibvmafBitForBit) {
  const fs::path dir = clitest::test_dir();
  int runs = 0, compared = 0, defined_where_libvmaf_is_not = 0;
  for (const VmafPair& p : testing_vectors::load_vmaf_pairs(kCatalogueVectors)) {
    const nlohmann::json& runs_of = p.info.at("runs");
    if (!runs_of.contains("ciede")) continue;
    SCOPED_TRACE(p.name);
    const nlohmann::json& run = runs_of.at("ciede");
    const fs::path out = dir / (p.name + ".json");
    std::vector<std::string> argv{
        EXACTVQ_CLI_PATH, "-n",    "-r",     p.ref.string(), "-d",  p.dist.string(),
        "--feature",      "ciede", "--json", "--precision",  "max", "-o",
        out.string()};
    const auto raw = raw_args(p);
    argv.insert(argv.end(), raw.begin(), raw.end());
    const clitest::RunResult r = clitest::run_program(argv, clitest::with_timeout(300));
    ASSERT_EQ(r.status, 0) << clitest::describe(r);
    const clitest::Report got = clitest::parse_json(clitest::read_file(out));
    ASSERT_EQ(got.names, std::vector<std::string>{"ciede2000"});
    const std::vector<double>& values = got.values.at("ciede2000");
    const bool stable = run.at("rc").get<int>() == 0 && run.value("perturb_stable", false);
    const nlohmann::json* frames = stable ? &run.at("frames") : nullptr;
    if (!frames) {
      // libvmaf has no value here (it crashed, or read memory it never wrote):
      // exactvq's is the definition's, the reference's bits.
      const std::vector<double> want = reference_scores(p);
      ASSERT_EQ(values.size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_TRUE(std::isfinite(values[i])) << "frame " << i;
        EXPECT_EQ(bits(values[i]), bits(want[i])) << "frame " << i;
      }
      std::printf("%s: libvmaf rc %d%s; exactvq scores %zu frames as the definition says\n",
                  p.name.c_str(), run.at("rc").get<int>(),
                  run.value("perturb_stable", true) ? "" : " (reads uninitialised memory)",
                  values.size());
      ++defined_where_libvmaf_is_not;
      continue;
    }
    ++runs;
    ASSERT_EQ(values.size(), frames->size());
    const std::vector<double> library = library_scores(p, 3);
    ASSERT_EQ(library.size(), frames->size());
    for (size_t i = 0; i < frames->size(); ++i) {
      const double want = stored((*frames)[i].at("ciede2000"));
      EXPECT_EQ(bits(values[i]), bits(want))
          << "frame " << i << ": " << values[i] << " vs " << want;
      EXPECT_EQ(bits(library[i]), bits(want)) << "library, frame " << i;
      ++compared;
    }
    for (const char* pool : {"min", "max", "mean", "harmonic_mean"}) {
      const double want = stored(run.at("pooled").at("ciede2000").at(pool));
      const double mine = got.pooled.at("ciede2000").at(pool);
      EXPECT_EQ(bits(mine), bits(want)) << "pooled " << pool << ": " << mine << " vs " << want;
      ++compared;
    }
  }
  std::printf(
      "ciede catalogue: %d runs, %d values equal to libvmaf's; %d pairs scored where libvmaf "
      "has no value\n",
      runs, compared, defined_where_libvmaf_is_not);
  EXPECT_EQ(runs, 18);
  EXPECT_EQ(defined_where_libvmaf_is_not, 3);
}

// The command line refuses what ciede has no value for: exit status 234, a
// message naming the feature and the size, no report.
TEST(CiedeCommandLine, RefusesClearlyWithoutAReport) {
  const fs::path dir = clitest::test_dir();
  const VideoFormat formats[] = {{66, 1, ChromaFormat::k422, 10},
                                 {8, 8, ChromaFormat::kMono, 8},
                                 {9, 4, ChromaFormat::k422, 8},
                                 {16, 16, ChromaFormat::k420, 9}};
  for (const VideoFormat& f : formats) {
    SCOPED_TRACE(f.describe());
    const fs::path in = dir / "in.y4m", out = dir / "out.json";
    clitest::write_file(in, clitest::y4m_bytes(f, clitest::make_frames(f, 1, 0)));
    const clitest::RunResult r =
        clitest::run_program({EXACTVQ_CLI_PATH, "-n", "-r", in.string(), "-d", in.string(),
                              "--feature", "ciede", "--json", "-o", out.string()});
    EXPECT_EQ(r.status, kExitPicture) << clitest::describe(r);
    EXPECT_NE(r.err.find("ciede"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(f.describe()), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
  }
}

}  // namespace
}  // namespace exactvq::ciede
