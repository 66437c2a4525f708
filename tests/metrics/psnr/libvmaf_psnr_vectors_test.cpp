// ../shared/vectors: psnr_y, psnr_cb, psnr_cr equal libvmaf's integer psnr bit for
// bit wherever the file gives them (chroma is left out for odd 4:2:0 sizes, where
// libvmaf reads chroma wrongly), through the library and through the CLI; ssim and
// psnr in one run give what each gives alone.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
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
#include "output/report.h"

namespace exactvq {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* const kPsnrNames[] = {"psnr_y", "psnr_cb", "psnr_cr"};

using testing_vectors::kVectors;
using testing_vectors::load_pairs;
using testing_vectors::Pair;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// libvmaf's value, printed with %.17g, which strtod reads back to the same bits.
double libvmaf_value(const json& score, const char* name) { return score.at(name).get<double>(); }

class LibvmafPsnrVectors : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kVectors / "libvmaf_scores.json"))
      GTEST_SKIP() << "no shared vectors at " << kVectors << ": libvmaf comparison skipped";
  }
};

// psnr_y, psnr_cb, psnr_cr of every frame of a pair, rows of 3.
std::vector<double> score_pair(const Pair& p, int frames, ThreadPool* pool) {
  auto ref = open_video(p.ref.string(), p.raw);
  auto dist = open_video(p.dist.string(), p.raw);
  FeatureContext ctx{ref->format(), pool, nullptr};
  auto feature = make_feature(parse_feature_spec("psnr"), ctx);
  EXPECT_EQ(feature->outputs(), (std::vector<std::string>{"psnr_y", "psnr_cb", "psnr_cr"}));
  Picture a, b;
  std::vector<double> scores(size_t(frames) * 3);
  for (int i = 0; i < frames; ++i) {
    EXPECT_TRUE(ref->read_frame(a));
    EXPECT_TRUE(dist->read_frame(b));
    feature->extract(a, b, std::span<double>(scores).subspan(size_t(i) * 3, 3));
  }
  return scores;
}

TEST_F(LibvmafPsnrVectors, LibraryEqualsLibvmafBitForBit) {
  int values_compared = 0;
  ThreadPool pool(2);
  for (ThreadPool* threads : {static_cast<ThreadPool*>(nullptr), &pool}) {
    for (const Pair& p : load_pairs()) {
      const json& scores = p.info.at("scores");
      const std::vector<double> got = score_pair(p, int(scores.size()), threads);
      for (size_t i = 0; i < scores.size(); ++i)
        for (size_t k = 0; k < 3; ++k) {
          if (!scores[i].contains(kPsnrNames[k])) continue;
          const double want = libvmaf_value(scores[i], kPsnrNames[k]);
          EXPECT_TRUE(same_bits(got[i * 3 + k], want))
              << p.info.at("name") << " frame " << i << " " << kPsnrNames[k] << ": "
              << fmt::format("{:a}", got[i * 3 + k]) << " libvmaf " << fmt::format("{:a}", want);
          ++values_compared;
        }
    }
  }
  EXPECT_EQ(values_compared, 2 * 150);
  std::printf("[ vectors  ] %d psnr values (1 and 2 threads) == libvmaf bit for bit\n",
              values_compared);
}

using testing_commands::command_output;

nlohmann::ordered_json run_cli(const Pair& p, const std::string& features) {
  std::string cmd = fmt::format("'{}' -q -r '{}' -d '{}' {} -n --precision max --json -o -",
                                EXACTVQ_CLI_PATH, p.ref.string(), p.dist.string(), features);
  if (p.raw.complete())
    cmd += fmt::format(" -w {} -h {} -p {} -b {}", *p.raw.width, *p.raw.height,
                       chroma_name(*p.raw.chroma), *p.raw.bitdepth);
  cmd += fmt::format(" --frame_cnt {}", p.info.at("scores").size());
  return nlohmann::ordered_json::parse(command_output(cmd));
}

TEST_F(LibvmafPsnrVectors, CliPrintsLibvmafValues) {
  int values_compared = 0;
  for (const Pair& p : load_pairs()) {
    const auto out = run_cli(p, "--feature psnr");
    const json& scores = p.info.at("scores");
    const auto& frames = out.at("frames");
    ASSERT_EQ(frames.size(), scores.size()) << p.info.at("name");
    for (size_t i = 0; i < scores.size(); ++i)
      for (const char* name : kPsnrNames) {
        if (!scores[i].contains(name)) continue;
        const double got = frames[i].at("metrics").at(name).get<double>();
        EXPECT_TRUE(same_bits(got, libvmaf_value(scores[i], name)))
            << p.info.at("name") << " frame " << i << " " << name;
        ++values_compared;
      }
  }
  EXPECT_EQ(values_compared, 150);
}

// One run reads each frame once and hands it to every feature; the values must be
// those of separate runs, in the order the features were given.
TEST_F(LibvmafPsnrVectors, SsimAndPsnrTogetherEqualEachAlone) {
  int values_compared = 0;
  for (const Pair& p : load_pairs()) {
    const auto both = run_cli(p, "--feature ssim --feature psnr=enable_mse=true --threads 2");
    const auto ssim = run_cli(p, "--feature ssim");
    const auto psnr = run_cli(p, "--feature psnr=enable_mse=true");
    const auto& frames = both.at("frames");
    ASSERT_EQ(frames.size(), ssim.at("frames").size());
    ASSERT_EQ(frames.size(), psnr.at("frames").size());
    for (size_t i = 0; i < frames.size(); ++i) {
      auto alone = ssim.at("frames")[i].at("metrics");
      alone.update(psnr.at("frames")[i].at("metrics"));
      const auto& together = frames[i].at("metrics");
      std::vector<std::string> order;
      for (const auto& item : together.items()) order.push_back(item.key());
      EXPECT_EQ(order, (std::vector<std::string>{"ssim", "psnr_y", "mse_y", "psnr_cb", "mse_cb",
                                                 "psnr_cr", "mse_cr"}));
      ASSERT_EQ(together.size(), alone.size());
      for (const auto& [name, value] : alone.items()) {
        EXPECT_TRUE(same_bits(together.at(name).get<double>(), value.get<double>()))
            << p.info.at("name") << " frame " << i << " " << name;
        ++values_compared;
      }
    }
  }
  EXPECT_EQ(values_compared, 52 * 7);
}

// apsnr_* over a pair's frames, through the library.
std::vector<std::pair<std::string, double>> library_apsnr(const Pair& p, int frames) {
  auto ref = open_video(p.ref.string(), p.raw);
  auto dist = open_video(p.dist.string(), p.raw);
  FeatureContext ctx{ref->format(), nullptr, nullptr};
  auto feature = make_feature(parse_feature_spec("psnr=enable_apsnr=true"), ctx);
  Picture a, b;
  std::vector<double> out(feature->outputs().size());
  for (int i = 0; i < frames; ++i) {
    EXPECT_TRUE(ref->read_frame(a));
    EXPECT_TRUE(dist->read_frame(b));
    feature->extract(a, b, out);
  }
  return feature->aggregates();
}

TEST_F(LibvmafPsnrVectors, ApsnrInTheAggregateMetricsOfJsonAndXml) {
  int pairs_checked = 0;
  for (const Pair& p : load_pairs()) {
    const std::string name = p.info.at("name").get<std::string>();
    if (name != "p8_420_576x324_testsrc2_x264" && name != "p8_420_576x324_testsrc2_identical" &&
        name != "p10_422_576x324_testsrc2_x264" && name != "p16_420_576x324_random_noise")
      continue;
    const int frames = int(p.info.at("scores").size());
    const auto want = library_apsnr(p, frames);
    ASSERT_EQ(want.size(), 3u);
    EXPECT_EQ(want[0].first, "apsnr_y");
    EXPECT_EQ(want[2].first, "apsnr_cr");
    if (name == "p8_420_576x324_testsrc2_identical") {  // SSE 0: the ceiling
      EXPECT_EQ(want[0].second, std::ceil(10.0 * std::log10(65025.0 * 576 * 324 * frames * 2)));
    }

    const auto json_out = run_cli(p, "--feature psnr=enable_apsnr=true");
    std::vector<std::pair<std::string, double>> got;
    for (const auto& [key, value] : json_out.at("aggregate_metrics").items())
      got.emplace_back(key, value.get<double>());
    ASSERT_EQ(got.size(), want.size()) << name;
    for (size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].first, want[k].first);
      EXPECT_TRUE(same_bits(got[k].second, want[k].second)) << name << " " << got[k].first;
    }

    std::string cmd = fmt::format(
        "'{}' -q -r '{}' -d '{}' --feature psnr=enable_apsnr=true -n --precision max --xml -o -",
        EXACTVQ_CLI_PATH, p.ref.string(), p.dist.string());
    if (p.raw.complete())
      cmd += fmt::format(" -w {} -h {} -p {} -b {}", *p.raw.width, *p.raw.height,
                         chroma_name(*p.raw.chroma), *p.raw.bitdepth);
    const NumberFormat shortest{6, true};
    const std::string line = fmt::format(
        "  <aggregate_metrics apsnr_y=\"{}\" apsnr_cb=\"{}\" apsnr_cr=\"{}\" />\n",
        format_number(want[0].second, shortest), format_number(want[1].second, shortest),
        format_number(want[2].second, shortest));
    EXPECT_NE(command_output(cmd).find(line), std::string::npos) << name << ": " << line;
    ++pairs_checked;
  }
  EXPECT_EQ(pairs_checked, 4);

  // Without enable_apsnr the aggregate metrics stay empty.
  const auto plain = run_cli(load_pairs().front(), "--feature psnr");
  EXPECT_TRUE(plain.at("aggregate_metrics").empty());
}

}  // namespace
}  // namespace exactvq
