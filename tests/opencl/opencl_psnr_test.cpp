// The OpenCL psnr feature (device SSE, host decibels) against the CPU feature,
// bit for bit: every public vector and seeded random pairs at every depth and
// format, with the options that change the arithmetic (mse, apsnr aggregates,
// reduced_hbd_peak, min_sse, luma only).
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

TEST_F(OpenclTest, PsnrRandomPairsEveryDepthAndFormat) {
  std::mt19937_64 rng(20261130);
  const int sizes[][2] = {{1, 1}, {3, 2}, {17, 9}, {70, 41}};
  size_t compared = 0, frames = 0;
  for (int depth = 8; depth <= 16; ++depth)
    for (ChromaFormat chroma : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444, ChromaFormat::kMono})
      for (const auto& size : sizes) {
        const VideoFormat f{size[0], size[1], chroma, depth};
        std::vector<std::unique_ptr<Twins>> twins;
        for (const char* spec : {"psnr=enable_mse=true:enable_apsnr=true",
                                 "psnr=reduced_hbd_peak=true:min_sse=0.5", "psnr=enable_chroma=false"})
          twins.push_back(std::make_unique<Twins>(f, spec));
        for (int content = 0; content < 3; ++content, ++frames) {
          Picture a, b;
          fill(a, b, f, content, rng);
          for (auto& t : twins) compared += t->compare(a, b, fmt::format("{} content {}", f.describe(), content));
        }
        for (auto& t : twins) compared += t->compare_aggregates(f.describe());
      }
  std::printf("[ opencl   ] psnr random pairs: %zu frames, %zu values bit for bit\n", frames, compared);
}

}  // namespace
}  // namespace exactvq::opencltest
