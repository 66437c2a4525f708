// ../shared/vectors: `raster` must equal libvmaf's per-frame value bit for bit,
// through the library and through the CLI; `exact` stays within 1e-11 of it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "metrics/feature.h"
#include "metrics/registry.h"
#include "io/video_source.h"
#include "command_output.h"
#include "libvmaf_vector_pairs.h"

namespace exactvq {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using testing_vectors::kVectors;
using testing_vectors::load_pairs;
using testing_vectors::Pair;

double hex_to_double(const std::string& hex) { return std::strtod(hex.c_str(), nullptr); }

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

class LibvmafVectors : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kVectors / "libvmaf_scores.json"))
      GTEST_SKIP() << "no shared vectors at " << kVectors << ": libvmaf comparison skipped";
  }
};

// Scores every frame of a pair with one ssim configuration.
std::vector<double> score_pair(const Pair& p, const std::string& options, int frames) {
  auto ref = open_video(p.ref.string(), p.raw);
  auto dist = open_video(p.dist.string(), p.raw);
  ThreadPool pool(2);
  FeatureContext ctx{ref->format(), &pool, nullptr};
  auto feature = make_feature(parse_feature_spec("ssim" + options), ctx);
  Picture a, b;
  std::vector<double> scores;
  for (int i = 0; i < frames; ++i) {
    EXPECT_TRUE(ref->read_frame(a));
    EXPECT_TRUE(dist->read_frame(b));
    double v = 0;
    feature->extract(a, b, std::span<double>(&v, 1));
    scores.push_back(v);
  }
  return scores;
}

TEST_F(LibvmafVectors, RasterEqualsLibvmafBitForBitAndExactIsClose) {
  int frames_compared = 0;
  double largest_difference = 0;
  std::string largest_at;
  for (const Pair& p : load_pairs()) {
    const json& scores = p.info.at("scores");
    const int n = int(scores.size());
    const std::vector<double> raster = score_pair(p, "=sum=raster", n);
    const std::vector<double> exact = score_pair(p, "", n);
    for (int i = 0; i < n; ++i) {
      const json& s = scores.at(size_t(i));
      ASSERT_EQ(s.at("frame").get<int>(), i);
      const double want = hex_to_double(s.at("ssim_hex").get<std::string>());
      EXPECT_TRUE(same_bits(raster[size_t(i)], want))
          << p.info.at("name") << " frame " << i << ": raster "
          << fmt::format("{:a}", raster[size_t(i)]) << " libvmaf " << fmt::format("{:a}", want);
      const double diff = std::fabs(exact[size_t(i)] - want);
      EXPECT_LE(diff, 1e-11) << p.info.at("name") << " frame " << i;
      if (diff > largest_difference) {
        largest_difference = diff;
        largest_at = fmt::format("{} frame {}", p.info.at("name").get<std::string>(), i);
      }
      ++frames_compared;
    }
  }
  EXPECT_EQ(frames_compared, 52);
  std::printf(
      "[ vectors  ] %d frames: raster == libvmaf bit for bit; largest |exact - raster| = %.3g "
      "(%s)\n",
      frames_compared, largest_difference, largest_at.c_str());
}

using testing_commands::command_output;

TEST_F(LibvmafVectors, CliWithPrecisionMaxPrintsLibvmafValues) {
  int frames_compared = 0;
  for (const Pair& p : load_pairs()) {
    std::string cmd = fmt::format(
        "'{}' -q -r '{}' -d '{}' --feature ssim=sum=raster -n --precision max --json -o /dev/stdout",
        EXACTVQ_CLI_PATH, p.ref.string(), p.dist.string());
    if (p.raw.complete())
      cmd += fmt::format(" -w {} -h {} -p {} -b {}", *p.raw.width, *p.raw.height,
                         chroma_name(*p.raw.chroma), *p.raw.bitdepth);
    const json& scores = p.info.at("scores");
    cmd += fmt::format(" --frame_cnt {}", scores.size());
    const json out = json::parse(command_output(cmd));
    const json& frames = out.at("frames");
    ASSERT_EQ(frames.size(), scores.size()) << p.info.at("name");
    for (size_t i = 0; i < scores.size(); ++i) {
      const double want = hex_to_double(scores[i].at("ssim_hex").get<std::string>());
      const double got = frames[i].at("metrics").at("ssim").get<double>();
      EXPECT_TRUE(same_bits(got, want)) << p.info.at("name") << " frame " << i;
      ++frames_compared;
    }
  }
  EXPECT_EQ(frames_compared, 52);
}

}  // namespace
}  // namespace exactvq
