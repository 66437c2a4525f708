// Injected GPU faults (backends/cuda/fault_injection.h): an allocation
// that fails, a failed kernel launch, the device lost between frames, a device
// that cannot be opened. Each is a DeviceError naming what failed; the CLI with
// --backend cuda exits non-zero and leaves no output file (an existing one
// byte-identical); --backend auto falls back to the CPU when the device fails at
// open. Cases that need a GPU skip with a message without one.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/cuda/cuda_device.h"
#include "metrics/registry.h"
#include "backends/cuda/fault_injection.h"
#include "cuda_fixture.h"

namespace exactvq::cudatest {
namespace {

namespace fs = std::filesystem;

// Sets EXACTVQ_CUDA_FAULT while it lives (devices read it when they open).
class FaultEnv {
 public:
  explicit FaultEnv(const char* value) { setenv("EXACTVQ_CUDA_FAULT", value, 1); }
  ~FaultEnv() { unsetenv("EXACTVQ_CUDA_FAULT"); }
};

std::shared_ptr<Device> open_with_fault(const char* fault) {
  FaultEnv env(fault);
  DeviceOptions o;
  o.backend = Backend::kCuda;
  return open_device(o, VideoFormat{16, 16, ChromaFormat::k420, 8});
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Scores `frames` pairs with ssim and psnr on `device` in batches of 4; the
// message of the DeviceError it throws, or "" when none.
std::string score_until_error(const std::shared_ptr<Device>& device, int frames) {
  const VideoFormat f{64, 48, ChromaFormat::k420, 8};
  ThreadPool pool(2);
  std::mt19937_64 rng(3);
  std::vector<Picture> ref(static_cast<size_t>(frames)), dist(static_cast<size_t>(frames));
  std::vector<FramePair> pairs;
  for (int i = 0; i < frames; ++i) {
    fill_pair(ref[size_t(i)], dist[size_t(i)], f, Content::kNoisy, rng);
    pairs.push_back({&ref[size_t(i)], &dist[size_t(i)], i});
  }
  try {
    auto ssim = make_feature(parse_feature_spec("ssim"), FeatureContext{f, &pool, device});
    auto psnr = make_feature(parse_feature_spec("psnr"), FeatureContext{f, &pool, device});
    std::vector<double> out(4 * 3);
    for (int start = 0; start < frames; start += 4) {
      const auto span =
          std::span(pairs).subspan(size_t(start), size_t(std::min(4, frames - start)));
      ssim->extract_batch(span, std::span(out).first(span.size()));
      psnr->extract_batch(span, std::span(out).first(span.size() * 3));
    }
  } catch (const DeviceError& e) {
    return e.what();
  }
  return "";
}

// Runs without a GPU: the variable is read strictly.
TEST(CudaFaultInjection, BadSettingIsRefused) {
  for (const char* bad : {"bogus", "alloc", "alloc@", "alloc@0", "launch@x", "lost@-1", "open@1",
                          "alloc@1234567890123456"})
    EXPECT_THROW(cuda::Faults::parse(bad), DeviceError) << bad;
  EXPECT_FALSE(cuda::Faults::parse(nullptr).any());
  EXPECT_FALSE(cuda::Faults::parse("").any());
  EXPECT_EQ(cuda::Faults::parse("lost@0").kind(), cuda::Faults::Kind::kLost);
  EXPECT_EQ(cuda::Faults::parse("alloc@3").kind(), cuda::Faults::Kind::kAlloc);
}

TEST_F(CudaTest, FaultAtOpenIsDeviceErrorAndAutoFallsBack) {
  FaultEnv env("open");
  DeviceOptions o;
  o.backend = Backend::kCuda;
  try {
    open_device(o, VideoFormat{16, 16, ChromaFormat::k420, 8});
    ADD_FAILURE() << "no DeviceError";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("--backend cuda"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot be opened"), std::string::npos) << e.what();
  }
  o.backend = Backend::kAuto;
  std::string notice;
  o.notice = [&](const std::string& s) { notice += s; };
  EXPECT_EQ(open_device(o, VideoFormat{16, 16, ChromaFormat::k420, 8}), nullptr);
  EXPECT_NE(notice.find("scoring on the CPU"), std::string::npos) << notice;
}

// Every allocation of a run fails in turn: each is a DeviceError naming the
// allocation, and the same device scores correctly when asked again.
TEST_F(CudaTest, EachFailedAllocationIsDeviceError) {
  int failures = 0;
  for (int n = 1; n <= 40; ++n) {
    auto device = open_with_fault(fmt::format("alloc@{}", n).c_str());
    const std::string message = score_until_error(device, 9);
    if (message.empty()) break;  // past the run's last allocation
    ++failures;
    EXPECT_NE(message.find("cudaMalloc"), std::string::npos) << message;
    EXPECT_NE(message.find("out of memory"), std::string::npos) << message;
    EXPECT_NE(message.find("injected"), std::string::npos) << message;
    // The fault was one allocation: the next run on the same device succeeds.
    EXPECT_EQ(score_until_error(device, 9), "") << "alloc@" << n;
    const VideoFormat f{16, 16, ChromaFormat::k420, 8};
    std::mt19937_64 rng(n);
    Picture a, b;
    fill_pair(a, b, f, Content::kRandom, rng);
    ThreadPool pool(1);
    auto gpu_ssim = make_feature(parse_feature_spec("ssim"), FeatureContext{f, &pool, device});
    auto cpu_ssim = make_feature(parse_feature_spec("ssim"), FeatureContext{f, &pool, nullptr});
    double got = 0, want = 1;
    const FramePair pair{&a, &b, 0};
    gpu_ssim->extract_batch({&pair, 1}, {&got, 1});
    cpu_ssim->extract_batch({&pair, 1}, {&want, 1});
    EXPECT_TRUE(same_bits(got, want)) << "alloc@" << n;
  }
  EXPECT_GE(failures, 3) << "the run makes several device allocations";
}

TEST_F(CudaTest, FailedLaunchIsDeviceError) {
  for (const int frame : {0, 5, 8}) {
    auto device = open_with_fault(fmt::format("launch@{}", frame).c_str());
    const std::string message = score_until_error(device, 9);
    EXPECT_NE(message.find("kernel launch"), std::string::npos) << message;
    EXPECT_NE(message.find(fmt::format("frame {}", frame)), std::string::npos) << message;
    EXPECT_NE(message.find("cudaErrorLaunchFailure"), std::string::npos) << message;
  }
  EXPECT_EQ(score_until_error(open_with_fault("launch@9"), 9), "") << "no frame 9";
}

TEST_F(CudaTest, DeviceLostBetweenFramesIsDeviceErrorAndStaysLost) {
  auto device = open_with_fault("lost@6");
  const std::string message = score_until_error(device, 9);
  EXPECT_NE(message.find("lost before frame 6"), std::string::npos) << message;
  // Every later use fails the same way; nothing hangs.
  const std::string again = score_until_error(device, 2);
  EXPECT_NE(again.find("was lost"), std::string::npos) << again;
}

// The CLI: --backend cuda fails with the device's message and writes nothing
// (an existing output file is left byte-identical); --backend auto falls back
// only when the device fails at open.
TEST_F(CudaTest, CliWithInjectedFaultsFailsCleanly) {
  const fs::path tmp = fs::path(EXACTVQ_TEST_TMP) / "cuda_faults";
  fs::create_directories(tmp);
  const std::string samples = EXACTVQ_SAMPLES_DIR;
  const fs::path existing = tmp / "existing.json", fresh = tmp / "fresh.json",
                 err = tmp / "err.txt";
  const std::string before = "{\"keep\": \"these bytes\"}\n";
  auto cli = [&](const char* fault, const char* backend, const fs::path& out) {
    // timeout: a hang fails the test instead of stalling it.
    return run_shell(fmt::format(
        "EXACTVQ_CUDA_FAULT={} timeout 120 '{}' -r '{}/ref.y4m' -d '{}/dist.y4m' --feature ssim "
        "--feature psnr -n --json --backend {} -o '{}' 2>'{}'",
        fault, EXACTVQ_CLI_PATH, samples, samples, backend, out.string(), err.string()));
  };
  for (const char* fault :
       {"alloc@1", "alloc@4", "launch@0", "launch@7", "lost@0", "lost@3", "open"}) {
    { std::ofstream(existing, std::ios::binary) << before; }
    fs::remove(fresh);
    const int status = cli(fault, "cuda", existing);
    EXPECT_NE(status, 0) << fault;
    EXPECT_NE(status, 124) << fault << ": timed out";
    EXPECT_EQ(slurp(existing), before) << fault;
    const std::string message = slurp(err);
    EXPECT_NE(message.find("injected"), std::string::npos) << fault << ": " << message;
    EXPECT_NE(cli(fault, "cuda", fresh), 0) << fault;
    EXPECT_FALSE(fs::exists(fresh)) << fault;
    // auto: a device that fails at open gives way to the CPU; one that fails
    // later ends the run as cuda does (the scores so far are not mixed with the CPU's).
    const int auto_status = cli(fault, "auto", fresh);
    if (std::string(fault) == "open") {
      EXPECT_EQ(auto_status, 0);
      EXPECT_TRUE(fs::exists(fresh));
      EXPECT_NE(slurp(err).find("scoring on the CPU"), std::string::npos) << slurp(err);
    } else {
      EXPECT_NE(auto_status, 0) << fault;
      EXPECT_FALSE(fs::exists(fresh)) << fault;
    }
  }
}

}  // namespace
}  // namespace exactvq::cudatest
