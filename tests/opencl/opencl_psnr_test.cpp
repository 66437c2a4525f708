// The OpenCL psnr feature (device SSE, host decibels) against the CPU feature,
// bit for bit, on every public vector (seeded random pairs of every depth and
// format are rows of tests/twins/).
#include "opencl_fixture.h"

namespace exactvq::opencltest {
namespace {

TEST_F(OpenclTest, PsnrPublicVectors) {
  size_t compared = 0, frames = 0;
  const bool found = for_each_public_vector([&](const std::string& name, VideoSource& ref, VideoSource& dist) {
    Twins t(ref.format(), "psnr=enable_mse=true:enable_apsnr=true");
    Picture a, b;
    for (int frame = 0; ref.read_frame(a) && dist.read_frame(b); ++frame, ++frames)
      compared += t.compare(a, b, fmt::format("{} frame {}", name, frame));
    compared += t.compare_aggregates(name);
  });
  if (!found) GTEST_SKIP() << "no shared vectors: public-vector check skipped";
  std::printf("[ opencl   ] psnr public vectors: %zu frames, %zu values bit for bit\n", frames, compared);
  EXPECT_GT(compared, 0u);
}

}  // namespace
}  // namespace exactvq::opencltest
