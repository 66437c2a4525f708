// The CUDA backend's errors: a refused allocation leaves the device usable, a
// missing GPU is a DeviceError (or, for --backend auto, the CPU with a notice),
// and the command line says so and writes nothing. Cases that need a GPU skip
// with a message without one.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "backends/cuda/cuda_resources.h"
#include "cuda_fixture.h"

namespace exactvq::cudatest {
namespace {

namespace fs = std::filesystem;

TEST_F(CudaTest, OutOfMemoryIsDeviceError) {
  EXPECT_THROW(cuda::DeviceBuffer(size_t{1} << 50), DeviceError);
  // The device stays usable after the refusal.
  std::mt19937_64 rng(1);
  const VideoFormat f{16, 16, ChromaFormat::k420, 8};
  Picture a, b;
  fill_pair(a, b, f, Content::kRandom, rng);
  const FramePair pair{&a, &b, 0};
  device_testing::compare_on_device(gpu(), f, "ssim", {"ssim"}, {pair}, "after out of memory");
}

// Runs without a GPU too: the faults a user sees.
TEST(CudaFaults, MissingGpuIsDeviceError) {
  DeviceOptions o;
  o.backend = Backend::kCuda;
  o.gpu = 999;
  EXPECT_THROW(open_device(o, VideoFormat{16, 16, ChromaFormat::k420, 8}), DeviceError);
  o.backend = Backend::kAuto;
  std::string notice;
  o.notice = [&](const std::string& s) { notice += s; };
  EXPECT_EQ(open_device(o, VideoFormat{16, 16, ChromaFormat::k420, 8}), nullptr);
  EXPECT_NE(notice.find("scoring on the CPU"), std::string::npos) << notice;
}

int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(CudaFaults, CliBackendCudaWithoutUsableGpuFailsAndWritesNothing) {
  const fs::path tmp = fs::path(EXACTVQ_TEST_TMP) / "cuda";
  fs::create_directories(tmp);
  const fs::path out = tmp / "never.xml", err = tmp / "err.txt";
  fs::remove(out);
  const std::string samples = EXACTVQ_SAMPLES_DIR;
  const int status =
      run_shell(fmt::format("'{}' -r '{}/ref.y4m' -d '{}/dist.y4m' --feature ssim -n --backend cuda "
                            "--gpu 999 -o '{}' 2>'{}'",
                            EXACTVQ_CLI_PATH, samples, samples, out.string(), err.string()));
  EXPECT_NE(status, 0);
  EXPECT_FALSE(fs::exists(out));
  std::ifstream e(err);
  const std::string message((std::istreambuf_iterator<char>(e)), {});
  EXPECT_NE(message.find("--backend cuda"), std::string::npos) << message;
  // auto falls back to the CPU and says so.
  EXPECT_EQ(run_shell(fmt::format("'{}' -r '{}/ref.y4m' -d '{}/dist.y4m' --feature ssim -n --backend "
                                  "auto --gpu 999 -o '{}' 2>'{}'",
                                  EXACTVQ_CLI_PATH, samples, samples, out.string(), err.string())),
            0);
  EXPECT_TRUE(fs::exists(out));
  std::ifstream e2(err);
  const std::string fallback((std::istreambuf_iterator<char>(e2)), {});
  EXPECT_NE(fallback.find("scoring on the CPU"), std::string::npos) << fallback;
}

}  // namespace
}  // namespace exactvq::cudatest
