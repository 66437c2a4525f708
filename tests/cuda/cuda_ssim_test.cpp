// The CUDA backend against the CPU reference, bit for bit: the kernel's exact
// sums (checkasm style), the feature on seeded random frames of every size
// class, depth, chroma format, mode and dB option, and the public vectors.
// Without a GPU every case skips with a message.
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

uint64_t seed_from_env() {
  const char* s = std::getenv("EXACTVQ_SEED");
  return s ? std::strtoull(s, nullptr, 0) : 0x5eed0c0da;
}

const ChromaFormat kChromas[] = {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444};
const int kDepths[] = {8, 9, 10, 12, 14, 16};

// The kernel's 128-bit sum and the reference's, for whole planes.
TEST_F(CudaTest, KernelExactSumEqualsReference) {
  const uint64_t seed = seed_from_env();
  std::mt19937_64 rng(seed);
  const int sizes[][2] = {{1, 1},   {1, 13},  {13, 1},  {2, 2},   {8, 8},    {9, 9},
                          {63, 31}, {64, 32}, {65, 33}, {72, 40}, {200, 97}, {1920, 1080}};
  // EXACTVQ_CUDA_SMALL=1 (for compute-sanitizer runs) leaves out the 1080p plane.
  const bool small = std::getenv("EXACTVQ_CUDA_SMALL") != nullptr;
  int compared = 0;
  for (const auto& s : sizes)
    for (const int bits : kDepths)
      for (const Content c : {Content::kRandom, Content::kNoisy, Content::kExtremes}) {
        if (small && s[0] > 256) continue;
        const VideoFormat f{s[0], s[1], ChromaFormat::k444, bits};
        Picture ref, dist;
        fill_pair(ref, dist, f, c, rng);
        const size_t bytes = f.plane_bytes(0);
        cuda::DeviceBuffer dref(bytes), ddist(bytes), dsum(sizeof(cuda::ExactWords));
        ASSERT_EQ(cudaMemcpy(dref.get(), ref.planes[0].data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
        ASSERT_EQ(cudaMemcpy(ddist.get(), dist.planes[0].data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
        ASSERT_EQ(cudaMemset(dsum.get(), 0, sizeof(cuda::ExactWords)), cudaSuccess);
        cuda::DevicePlanes planes{dref.get(), ddist.get(), bytes, s[0], s[1], bits, 1};
        cuda::launch_exact(planes, dsum.get<cuda::ExactWords>(), nullptr);
        cuda::ExactWords got{}, emulated{};
        ASSERT_EQ(cudaMemcpy(&got, dsum.get(), sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
        ASSERT_EQ(cudaMemset(dsum.get(), 0, sizeof(cuda::ExactWords)), cudaSuccess);
        planes.emulate_fp64 = true;
        cuda::launch_exact(planes, dsum.get<cuda::ExactWords>(), nullptr);
        ASSERT_EQ(cudaMemcpy(&emulated, dsum.get(), sizeof emulated, cudaMemcpyDeviceToHost), cudaSuccess);
        EXPECT_TRUE(emulated.lo == got.lo && emulated.hi == got.hi)
            << "fp64 emulated vs native " << f.describe() << " content " << int(c) << " seed " << seed;
        const ssim::ExactSum want = ssim::exact_sum(ref.plane(0), dist.plane(0), bits, ssim::whole(ref.plane(0)));
        const auto want_lo = static_cast<uint64_t>(static_cast<ssim::uint128>(want.sum_q));
        const auto want_hi = static_cast<uint64_t>(static_cast<ssim::uint128>(want.sum_q) >> 64);
        EXPECT_TRUE(got.lo == want_lo && got.hi == want_hi)
            << f.describe() << " content " << int(c) << " seed " << seed;
        ++compared;
      }
  std::printf("[ cuda     ] %d plane sums, native and fp64-emulated kernels, equal to the reference's 128-bit sums (seed %#llx)\n",
              compared, static_cast<unsigned long long>(seed));
}

// The feature (pipeline, lanes, batches, both modes, dB, chroma) at small and
// odd sizes: every depth, chroma format and option set.
TEST_F(CudaTest, FeatureEqualsCpuOnSmallSizes) {
  const uint64_t seed = seed_from_env();
  std::mt19937_64 rng(seed);
  const int sizes[][2] = {{1, 1}, {1, 9}, {9, 1}, {2, 3}, {5, 5}, {9, 9}, {17, 9},
                          {33, 31}, {65, 33}, {70, 41}, {129, 97}};
  const char* specs[] = {"ssim", "ssim=sum=raster", "ssim=chroma=true",
                         "ssim=sum=raster:chroma=true:enable_db=true",
                         "ssim=enable_db=true:clip_db=true:chroma=true",
                         "ssim=fp64=emulate:chroma=true", "ssim=sum=raster:fp64=emulate",
                         "psnr", "psnr=enable_mse=true:enable_apsnr=true:reduced_hbd_peak=true",
                         "psnr=enable_chroma=false:min_sse=0.5"};
  int compared = 0;
  for (const auto& s : sizes)
    for (const int bits : kDepths)
      for (const ChromaFormat chroma : kChromas) {
        const VideoFormat f{s[0], s[1], chroma, bits};
        std::vector<Picture> refs(3), dists(3);
        std::vector<FramePair> pairs;
        for (int i = 0; i < 3; ++i) {
          fill_pair(refs[size_t(i)], dists[size_t(i)], f, Content(i), rng);
          pairs.push_back({&refs[size_t(i)], &dists[size_t(i)], i});
        }
        for (const char* spec : specs) compared += compare_cpu_gpu(f, spec, pairs, "small");
      }
  std::printf("[ cuda     ] %d values equal to the CPU's bit for bit (seed %#llx)\n", compared,
              static_cast<unsigned long long>(seed));
}

// Many frames through extract_batch: several lanes and launches per batch.
TEST_F(CudaTest, FeatureEqualsCpuOverManyFrames) {
  std::mt19937_64 rng(seed_from_env() + 1);
  const VideoFormat f{96, 64, ChromaFormat::k420, 10};
  std::vector<Picture> refs(150), dists(150);
  std::vector<FramePair> pairs;
  for (size_t i = 0; i < refs.size(); ++i) {
    fill_pair(refs[i], dists[i], f, Content(i % 3), rng);
    pairs.push_back({&refs[i], &dists[i], int64_t(i)});
  }
  int compared = 0;
  for (const char* spec : {"ssim", "ssim=sum=raster:chroma=true", "ssim=fp64=emulate",
                           "psnr=enable_apsnr=true"})
    compared += compare_cpu_gpu(f, spec, pairs, "many frames");
  std::printf("[ cuda     ] %d values over 150 frames equal to the CPU's\n", compared);
}

// Frame sizes that fill the GPU: 576x324, 1080p and 4K (pinned uploads).
TEST_F(CudaTest, FeatureEqualsCpuOnLargeFrames) {
  std::mt19937_64 rng(seed_from_env() + 2);
  struct Case { int w, h, bits; ChromaFormat chroma; const char* spec; int frames; };
  const Case cases[] = {
      {576, 324, 8, ChromaFormat::k420, "ssim=chroma=true", 4},
      {576, 324, 12, ChromaFormat::k422, "ssim=sum=raster:chroma=true", 4},
      {1920, 1080, 8, ChromaFormat::k420, "ssim=chroma=true", 3},
      {1920, 1080, 10, ChromaFormat::k420, "ssim=sum=raster", 2},
      {1920, 1080, 16, ChromaFormat::k444, "ssim=enable_db=true:clip_db=true", 2},
      {3840, 2160, 8, ChromaFormat::k420, "ssim", 2},
      {3840, 2160, 8, ChromaFormat::k420, "ssim=sum=raster", 2},
      {3840, 2160, 16, ChromaFormat::k420, "ssim", 1},
      {3840, 2160, 8, ChromaFormat::k420, "ssim=fp64=emulate", 2},
      {1920, 1080, 16, ChromaFormat::k420, "ssim=fp64=emulate:chroma=true", 2},
      {3840, 2160, 10, ChromaFormat::k420, "psnr=enable_mse=true", 2},
  };
  int compared = 0;
  for (const Case& c : cases) {
    const VideoFormat f{c.w, c.h, c.chroma, c.bits};
    std::vector<Picture> refs(size_t(c.frames)), dists(size_t(c.frames));
    std::vector<FramePair> pairs;
    for (int i = 0; i < c.frames; ++i) {
      fill_pair(refs[size_t(i)], dists[size_t(i)], f, Content(i % 2), rng);
      pairs.push_back({&refs[size_t(i)], &dists[size_t(i)], i});
    }
    compared += compare_cpu_gpu(f, c.spec, pairs, "large");
  }
  std::printf("[ cuda     ] %d values on 576x324 to 4K frames equal to the CPU's\n", compared);
}

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
  const int status = run_shell(fmt::format("'{}' -r '{}/ref.y4m' -d '{}/dist.y4m' --backend cuda --gpu 999 -o '{}' 2>'{}'",
                                           EXACTVQ_CLI_PATH, samples, samples, out.string(), err.string()));
  EXPECT_NE(status, 0);
  EXPECT_FALSE(fs::exists(out));
  std::ifstream e(err);
  const std::string message((std::istreambuf_iterator<char>(e)), {});
  EXPECT_NE(message.find("--backend cuda"), std::string::npos) << message;
  // auto falls back to the CPU and says so.
  EXPECT_EQ(run_shell(fmt::format("'{}' -r '{}/ref.y4m' -d '{}/dist.y4m' --backend auto --gpu 999 -o '{}' 2>'{}'",
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
