// The OpenCL backend's errors: a kernel source that does not build, a program
// without the kernels a feature asks for and a device number that does not
// exist are DeviceErrors naming what failed; the command line says so and
// writes nothing. In CI it runs on PoCL; without any OpenCL device it skips
// with the reason.
#include <sys/wait.h>

#include <cstdlib>
#include <iterator>

#include "opencl_fixture.h"
#include "metrics/registry.h"

namespace exactvq::opencltest {
namespace {

TEST_F(OpenclTest, BrokenKernelSourceIsDeviceError) {
  try {
    opencl::OpenclDevice broken(0, "__kernel void ssim_terms(__global int* p { p[0] = ; }");
    FAIL() << "a broken kernel source built";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("OpenCL build of the kernel source given failed"),
              std::string::npos)
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

TEST_F(OpenclTest, DescriptionNamesTheDevice) {
  EXPECT_NE(device()->description().find("opencl device 0: "), std::string::npos);
}

// The command line with a device number that does not exist: a clear error, a
// non-zero exit and no output file.
TEST_F(OpenclTest, CliMissingDeviceFailsWithoutOutput) {
  const fs::path tmp = fs::path(EXACTVQ_TEST_TMP);
  fs::create_directories(tmp);
  const fs::path out = tmp / "missing.json", err = tmp / "missing.err";
  fs::remove(out);
  const std::string samples = EXACTVQ_SAMPLES_DIR;
  const std::string cmd = fmt::format(
      "'{}' -r '{}/ref.y4m' -d '{}/dist.y4m' --feature ssim=chroma=true:sum=exact --feature psnr -n "
      "--precision max --json -o '{}' --backend opencl --opencl-device 99 2> '{}'",
      EXACTVQ_CLI_PATH, samples, samples, out.string(), err.string());
  const int status = std::system(cmd.c_str());
  EXPECT_NE(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
  EXPECT_FALSE(fs::exists(out));
  std::ifstream in(err);
  const std::string message((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(message.find("--opencl-device 99"), std::string::npos) << message;
}

}  // namespace
}  // namespace exactvq::opencltest
