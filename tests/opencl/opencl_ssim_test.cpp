// The OpenCL ssim feature against the CPU, bit for bit, on every public vector
// in both sum modes with chroma and dB options (seeded random pairs of every
// depth, format and size are rows of tests/twins/); device and kernel-build
// failures are DeviceErrors. In CI it runs on PoCL; without any OpenCL device it skips with the
// reason. The program is built once for the whole binary (PoCL compiles slowly).
#include "opencl_fixture.h"
#include "metrics/registry.h"

namespace exactvq::opencltest {
namespace {

TEST_F(OpenclTest, PublicVectorsBothModes) {
  size_t compared = 0, frames = 0;
  const bool found = for_each_public_vector([&](const std::string& name, VideoSource& ref, VideoSource& dist) {
    const VideoFormat f = ref.format();
    std::vector<std::unique_ptr<Twins>> twins;
    for (const char* spec : {"ssim=sum=exact:chroma=true", "ssim=sum=raster:chroma=true"})
      twins.push_back(std::make_unique<Twins>(f, spec));
    if (name == "p8_420_576x324_testsrc2_x264")  // dB is host arithmetic: one pair suffices
      for (const char* spec : {"ssim=enable_db=true:clip_db=true", "ssim=sum=raster:enable_db=true"})
        twins.push_back(std::make_unique<Twins>(f, spec));
    Picture a, b;
    for (int frame = 0; ref.read_frame(a) && dist.read_frame(b); ++frame, ++frames)
      for (auto& t : twins) compared += t->compare(a, b, fmt::format("{} frame {}", name, frame));
  });
  if (!found) GTEST_SKIP() << "no shared vectors: public-vector check skipped";
  std::printf("[ opencl   ] public vectors: %zu frames, %zu scores bit for bit\n", frames, compared);
  EXPECT_GT(compared, 0u);
}

TEST_F(OpenclTest, IdenticalFramesScoreOne) {
  const VideoFormat f{40, 24, ChromaFormat::k420, 10};
  std::mt19937_64 rng(7);
  Picture a, b;
  fill(a, b, f, 0, rng);
  Twins t(f, "ssim=enable_db=true");
  t.compare(a, a, "identical, dB without clip (+infinity)");
}

TEST_F(OpenclTest, BrokenKernelSourceIsDeviceError) {
  try {
    opencl::OpenclDevice broken(0, "__kernel void ssim_terms(__global int* p { p[0] = ; }");
    FAIL() << "a broken kernel source built";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("OpenCL build of the kernel source given failed"), std::string::npos)
        << e.what();
  }
}

TEST_F(OpenclTest, MissingKernelIsDeviceError) {
  // Builds, but lacks the kernels the feature asks for.
  auto empty = std::make_shared<opencl::OpenclDevice>(0, "__kernel void nothing(void) {}");
  const VideoFormat f{8, 8, ChromaFormat::k420, 8};
  try {
    make_feature(parse_feature_spec("ssim"), FeatureContext{f, nullptr, empty});
    FAIL() << "a feature without its kernels";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("ssim_horizontal"), std::string::npos) << e.what();
  }
}

TEST_F(OpenclTest, MissingDeviceIndexIsDeviceError) {
  DeviceOptions o;
  o.backend = Backend::kOpenCL;
  o.opencl_device = 999;
  try {
    open_device(o, VideoFormat{8, 8, ChromaFormat::k420, 8});
    FAIL() << "device 999 opened";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("--opencl-device 999"), std::string::npos) << e.what();
  }
  o.opencl_device = -1;
  EXPECT_THROW(open_device(o, VideoFormat{8, 8, ChromaFormat::k420, 8}), DeviceError);
}

TEST_F(OpenclTest, BadOptionsAreUsageErrors) {
  const FeatureContext mono{VideoFormat{8, 8, ChromaFormat::kMono, 8}, nullptr, device()};
  EXPECT_THROW(make_feature(parse_feature_spec("ssim=chroma=true"), mono), UsageError);
  EXPECT_THROW(make_feature(parse_feature_spec("ssim=bogus=1"), mono), UsageError);
}

TEST_F(OpenclTest, DescriptionNamesTheDevice) {
  EXPECT_NE(device()->description().find("opencl device 0: "), std::string::npos);
}

}  // namespace
}  // namespace exactvq::opencltest
