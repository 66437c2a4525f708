// The CUDA backend's features against the CPU and libvmaf on the public vectors,
// its errors, and the command line on a GPU (the engines and kernels against
// the scalar reference on seeded frames are rows of tests/twins/). Without a GPU
// every case skips with a message.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "backends/cuda/cuda_resources.h"
#include "metrics/registry.h"
#include "metrics/ssim/cuda/ssim_kernels.h"
#include "cuda_fixture.h"
#include "io/video_source.h"
#include "libvmaf_vector_pairs.h"
#include "metrics/ssim/reference.h"

namespace exactvq::cudatest {
namespace {

namespace fs = std::filesystem;

// Every public vector, every frame, both modes with chroma and dB: GPU == CPU,
// and the GPU's raster luma == libvmaf's value.
TEST_F(CudaTest, PublicVectorsEqualCpuAndLibvmaf) {
  if (!testing_vectors::vectors_present())
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVectors;
  int compared = 0, libvmaf_frames = 0;
  for (const testing_vectors::Pair& pair : testing_vectors::load_pairs()) {
    const nlohmann::json& p = pair.info;
    auto ref = open_video(pair.ref.string(), pair.raw);
    auto dist = open_video(pair.dist.string(), pair.raw);
    const VideoFormat f = ref->format();
    const nlohmann::json& scores = p.at("scores");
    std::vector<Picture> refs(scores.size()), dists(scores.size());
    std::vector<FramePair> pairs;
    for (size_t i = 0; i < scores.size(); ++i) {
      ASSERT_TRUE(ref->read_frame(refs[i]));
      ASSERT_TRUE(dist->read_frame(dists[i]));
      pairs.push_back({&refs[i], &dists[i], int64_t(i)});
    }
    const std::string name = p.at("name").get<std::string>();
    const bool chroma = f.chroma != ChromaFormat::kMono;
    for (const char* spec : {"ssim", "ssim=sum=raster", "ssim=enable_db=true:clip_db=true",
                             "ssim=fp64=emulate", "psnr=enable_mse=true:enable_apsnr=true"})
      compared += compare_cpu_gpu(f, spec, pairs, name);
    if (chroma)
      for (const char* spec : {"ssim=chroma=true", "ssim=sum=raster:chroma=true:enable_db=true"})
        compared += compare_cpu_gpu(f, spec, pairs, name);

    ThreadPool pool(2);
    auto raster = make_feature(parse_feature_spec("ssim=sum=raster"), FeatureContext{f, &pool, gpu()});
    std::vector<double> got(pairs.size());
    raster->extract_batch(pairs, got);
    for (size_t i = 0; i < scores.size(); ++i, ++libvmaf_frames) {
      const double want = std::strtod(scores[i].at("ssim_hex").get<std::string>().c_str(), nullptr);
      EXPECT_TRUE(same_bits(got[i], want)) << name << " frame " << i << ": gpu raster "
                                           << fmt::format("{:a}", got[i]) << " libvmaf "
                                           << fmt::format("{:a}", want);
    }
  }
  EXPECT_EQ(libvmaf_frames, 52);
  std::printf("[ cuda     ] public vectors: %d values equal to the CPU's, %d raster frames equal to libvmaf\n",
              compared, libvmaf_frames);
}

TEST_F(CudaTest, OutOfMemoryIsDeviceError) {
  EXPECT_THROW(cuda::DeviceBuffer(size_t{1} << 50), DeviceError);
  // The device stays usable after the refusal.
  std::mt19937_64 rng(1);
  const VideoFormat f{16, 16, ChromaFormat::k420, 8};
  Picture a, b;
  fill_pair(a, b, f, Content::kRandom, rng);
  const FramePair pair{&a, &b, 0};
  compare_cpu_gpu(f, "ssim", {pair}, "after out of memory");
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
  const int status = run_shell(fmt::format("'{}' -r '{}/ref.y4m' -d '{}/dist.y4m' --feature ssim --backend cuda --gpu 999 -o '{}' 2>'{}'",
                                           EXACTVQ_CLI_PATH, samples, samples, out.string(), err.string()));
  EXPECT_NE(status, 0);
  EXPECT_FALSE(fs::exists(out));
  std::ifstream e(err);
  const std::string message((std::istreambuf_iterator<char>(e)), {});
  EXPECT_NE(message.find("--backend cuda"), std::string::npos) << message;
  // auto falls back to the CPU and says so.
  EXPECT_EQ(run_shell(fmt::format("'{}' -r '{}/ref.y4m' -d '{}/dist.y4m' --feature ssim --backend auto --gpu 999 -o '{}' 2>'{}'",
                                  EXACTVQ_CLI_PATH, samples, samples, out.string(), err.string())),
            0);
  EXPECT_TRUE(fs::exists(out));
  std::ifstream e2(err);
  const std::string fallback((std::istreambuf_iterator<char>(e2)), {});
  EXPECT_NE(fallback.find("scoring on the CPU"), std::string::npos) << fallback;
}

// On a GPU: the CLI names the device with --verbose and prints the CPU's score.
TEST_F(CudaTest, CliOnGpuNamesDeviceAndMatchesCpu) {
  const fs::path tmp = fs::path(EXACTVQ_TEST_TMP) / "cuda";
  fs::create_directories(tmp);
  const std::string samples = EXACTVQ_SAMPLES_DIR;
  auto run = [&](const std::string& backend, const std::string& out) {
    return run_shell(fmt::format("'{}' -r '{}/ref.y4m' -d '{}/dist.y4m' --feature ssim=chroma=true --precision max --json -o '{}' --backend {} --verbose 2>'{}.err'",
                                 EXACTVQ_CLI_PATH, samples, samples, out, backend, out));
  };
  const std::string cpu = (tmp / "cpu.json").string(), gpu_out = (tmp / "gpu.json").string();
  ASSERT_EQ(run("cpu", cpu), 0);
  ASSERT_EQ(run("cuda", gpu_out), 0);
  std::ifstream a(cpu), b(gpu_out), err(gpu_out + ".err");
  const nlohmann::json ja = nlohmann::json::parse(a), jb = nlohmann::json::parse(b);
  EXPECT_EQ(ja.at("frames"), jb.at("frames"));
  const std::string message((std::istreambuf_iterator<char>(err)), {});
  EXPECT_NE(message.find("cuda device 0:"), std::string::npos) << message;
}

}  // namespace
}  // namespace exactvq::cudatest
