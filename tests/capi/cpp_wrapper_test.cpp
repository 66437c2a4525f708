// The header-only C++ wrapper: RAII over the context, failures as exceptions that
// carry the C status and message, and the same scores as the C calls.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "exactvq/exactvq.hpp"

namespace {

const std::string kRef = std::string(EXACTVQ_SAMPLES_DIR) + "/ref.y4m";
const std::string kDist = std::string(EXACTVQ_SAMPLES_DIR) + "/dist.y4m";

TEST(CppWrapper, ScoresFilesAndPools) {
  exactvq::api::Options options;
  options.features = {"ssim=chroma=true"};
  options.threads = 1;
  exactvq::api::Context ctx(options);
  EXPECT_EQ(ctx.score_names(), (std::vector<std::string>{"ssim", "ssim_cb", "ssim_cr"}));
  ctx.score_files(kRef, kDist);
  ASSERT_EQ(ctx.frame_count(), 10u);
  EXPECT_EQ(ctx.frame_numbers().back(), 9u);
  const std::vector<double> ssim = ctx.scores("ssim");
  double sum = 0;
  for (double v : ssim) sum += v;
  EXPECT_EQ(ctx.pooled("ssim").mean, sum / double(ssim.size()));
  EXPECT_EQ(ctx.score("ssim", 3), ssim[3]);

  exactvq::api::Context moved = std::move(ctx);
  EXPECT_EQ(moved.scores("ssim"), ssim);
}

TEST(CppWrapper, FailuresThrowWithStatusAndMessage) {
  exactvq::api::Options options;
  options.features = {"ssim=chroma=maybe"};
  try {
    exactvq::api::Context ctx(options);
    FAIL() << "no exception";
  } catch (const exactvq::api::Error& e) {
    EXPECT_EQ(e.status(), EXACTVQ_ERROR_USAGE);
    EXPECT_NE(std::string(e.what()).find("chroma"), std::string::npos) << e.what();
  }
  exactvq::api::Context ctx;
  try {
    ctx.score_files(kRef, "/nonexistent.y4m");
    FAIL() << "no exception";
  } catch (const exactvq::api::Error& e) {
    EXPECT_EQ(e.status(), EXACTVQ_ERROR_INPUT);
    EXPECT_NE(std::string(e.what()).find("/nonexistent.y4m"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ctx.pooled("ssim"), exactvq::api::Error);
}

TEST(CppWrapper, MessagesReachTheHandler) {
  std::vector<std::string> messages;
  exactvq::api::Options options;
  options.on_message = [&](const std::string& m) { messages.push_back(m); };
  exactvq::api::Context ctx(options);
  exactvq_file_options fo = exactvq::api::default_file_options();
  fo.skip_dist = 2;
  ctx.score_files(kRef, kDist, fo);
  EXPECT_EQ(ctx.frame_count(), 8u);
  EXPECT_EQ(messages.size(), 1u);
}

}  // namespace
