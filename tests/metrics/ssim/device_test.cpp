// ssim on every device backend against the CPU and libvmaf, bit for bit: every
// public vector and frame in both sum modes with chroma and dB options, the
// device's raster luma against libvmaf's value, identical frames, refused
// options, and the command line (the engines and kernels against the scalar
// reference on seeded frames are rows of tests/twins/). CUDA scores each
// option set in one batch, fp64=emulate among them; OpenCL (PoCL in CI) frame
// by frame as loose pairs. Without a device a backend's cases skip with a
// message.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "device_fixture.h"
#include "libvmaf_vector_pairs.h"

namespace exactvq::device_testing {
namespace {

namespace fs = std::filesystem;

class SsimOnDevice : public DeviceTest {};

// What each backend scores of the public vectors.
struct PublicPlan {
  Pace pace;
  std::vector<const char*> specs;
  std::vector<const char*> chroma_specs;    // on pairs with chroma
  std::vector<const char*> one_pair_specs;  // dB is host arithmetic: one pair suffices
};

constexpr const char* kOnePair = "p8_420_576x324_testsrc2_x264";

PublicPlan public_plan(Backend b) {
  if (b == Backend::kCuda)
    return {Pace::kOneBatch,
            {"ssim", "ssim=sum=raster", "ssim=enable_db=true:clip_db=true", "ssim=fp64=emulate"},
            {"ssim=chroma=true", "ssim=sum=raster:chroma=true:enable_db=true"},
            {}};
  return {Pace::kLoosePairs,
          {},
          {"ssim=sum=exact:chroma=true", "ssim=sum=raster:chroma=true"},
          {"ssim=enable_db=true:clip_db=true", "ssim=sum=raster:enable_db=true"}};
}

// Every public vector, every frame: device == CPU, and the device's raster
// luma == libvmaf's value.
TEST_P(SsimOnDevice, PublicVectorsEqualCpuAndLibvmaf) {
  if (!testing_vectors::vectors_present())
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVectors;
  const PublicPlan plan = public_plan(backend());
  int compared = 0, libvmaf_frames = 0;
  for (const testing_vectors::Pair& pair : testing_vectors::load_pairs()) {
    const nlohmann::json& p = pair.info;
    // Every frame of the files; libvmaf scored the first scores.size().
    const PictureFrames frames(read_pictures(pair.ref, pair.raw),
                               read_pictures(pair.dist, pair.raw));
    const std::vector<FramePair>& pairs = frames.pairs;
    const VideoFormat f = frames.format();
    const nlohmann::json& scores = p.at("scores");
    ASSERT_GE(pairs.size(), scores.size());
    const std::string name = p.at("name").get<std::string>();
    std::vector<const char*> specs = plan.specs;
    if (f.chroma != ChromaFormat::kMono)
      specs.insert(specs.end(), plan.chroma_specs.begin(), plan.chroma_specs.end());
    if (name == kOnePair)
      specs.insert(specs.end(), plan.one_pair_specs.begin(), plan.one_pair_specs.end());
    for (const char* spec : specs)
      compared += compare_on_device(device(), f, spec, {spec}, pairs, name, plan.pace).compared;

    ThreadPool pool(2);
    auto raster =
        make_feature(parse_feature_spec("ssim=sum=raster"), FeatureContext{f, &pool, device()});
    std::vector<double> got(pairs.size());
    raster->extract_batch(pairs, got);
    for (size_t i = 0; i < scores.size(); ++i, ++libvmaf_frames) {
      const double want = std::strtod(scores[i].at("ssim_hex").get<std::string>().c_str(), nullptr);
      EXPECT_TRUE(same_bits(got[i], want))
          << name << " frame " << i << ": device raster " << fmt::format("{:a}", got[i])
          << " libvmaf " << fmt::format("{:a}", want);
    }
  }
  EXPECT_EQ(libvmaf_frames, 52);
  std::printf(
      "%s public vectors: %d values equal to the CPU's, %d raster frames equal to libvmaf\n",
      tag().c_str(), compared, libvmaf_frames);
}

TEST_P(SsimOnDevice, IdenticalFramesScoreOne) {
  const VideoFormat f{40, 24, ChromaFormat::k420, 10};
  std::mt19937_64 rng(7);
  Picture a, b;
  fill_pair(a, b, f, Content::kRandom, rng);
  const FramePair pair{&a, &a, FramePair::kLoose};
  compare_on_device(device(), f, "ssim=enable_db=true", {"ssim=enable_db=true"}, {pair},
                    "identical, dB without clip (+infinity)", Pace::kLoosePairs);
}

TEST_P(SsimOnDevice, BadOptionsAreUsageErrors) {
  const FeatureContext mono{VideoFormat{8, 8, ChromaFormat::kMono, 8}, nullptr, device()};
  EXPECT_THROW(make_feature(parse_feature_spec("ssim=chroma=true"), mono), UsageError);
  EXPECT_THROW(make_feature(parse_feature_spec("ssim=bogus=1"), mono), UsageError);
}

int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

nlohmann::json read_report(const fs::path& p) {
  std::ifstream in(p);
  nlohmann::json j = nlohmann::json::parse(in);
  j.erase("fps");  // timing, not a score
  return j;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The command line with --backend <device> names the device with --verbose and
// writes the CPU's report (every value printed with --precision max, so equal
// text is equal bits), ssim with chroma in both sum modes beside psnr.
TEST_P(SsimOnDevice, CliNamesTheDeviceAndMatchesCpu) {
  const std::string name = backend_name(backend());
  const fs::path tmp = fs::path(EXACTVQ_TEST_TMP) / (name + "_ssim_cli");
  fs::create_directories(tmp);
  const std::string samples = EXACTVQ_SAMPLES_DIR;
  auto run = [&](const std::string& backend, const std::string& mode, const fs::path& out) {
    return run_shell(
        fmt::format("'{}' -r '{}/ref.y4m' -d '{}/dist.y4m' --feature ssim=chroma=true:sum={} "
                    "--feature psnr -n --precision max "
                    "--json -o '{}' --backend {} --verbose 2>'{}.err'",
                    EXACTVQ_CLI_PATH, samples, samples, mode, out.string(), backend, out.string()));
  };
  for (const char* mode : {"exact", "raster"}) {
    const fs::path cpu = tmp / "cpu.json", on_device = tmp / (name + ".json");
    ASSERT_EQ(run("cpu", mode, cpu), 0);
    ASSERT_EQ(run(name, mode, on_device), 0);
    EXPECT_EQ(read_report(cpu), read_report(on_device)) << mode;
    const std::string message = read_text(on_device.string() + ".err");
    EXPECT_NE(message.find(name + " device 0:"), std::string::npos) << message;
  }
}

EXACTVQ_ON_EVERY_DEVICE_BACKEND(SsimOnDevice);

}  // namespace
}  // namespace exactvq::device_testing
