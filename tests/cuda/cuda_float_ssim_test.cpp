// float_ssim and float_ms_ssim on the CUDA device against the CPU, bit for bit:
// every public vector pair (and libvmaf's stored values), seeded pictures of
// many sizes and every depth under every option, batches of 1, 2, 3 and all
// frames and a loose pair, a run shared with another engine, the fp64 option
// (native and emulated binary64: the same bits), and the command line. Without a GPU every case skips with a message.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cuda_fixture.h"
#include "float_ssim/float_ssim_vectors.h"
#include "metrics/float_ssim/reference.h"
#include "vif/vif_clips.h"

namespace exactvq::cudatest {
namespace {

namespace fs = std::filesystem;

const char* const kSpecs[] = {
    "float_ssim",
    "float_ssim=enable_lcs=true",
    "float_ssim=scale=1:enable_db=true:clip_db=true",  // the AOM CTC setting
    "float_ssim=scale=1:enable_lcs=true:enable_db=true",
    "float_ssim=scale=2:enable_lcs=true",
    "float_ssim=scale=3:enable_db=true:clip_db=true",
    "float_ms_ssim",
    "float_ms_ssim=enable_lcs=true:enable_db=true:clip_db=true",
};

// Whether the CPU scores `spec` on pictures of `f` (InputError: libvmaf gives no
// value, e.g. MS-SSIM under 176); the GPU must refuse the same.
bool scoreable(const VideoFormat& f, const std::string& spec) {
  try {
    make_feature(parse_feature_spec(spec), FeatureContext{f, nullptr, nullptr});
  } catch (const InputError&) {
    EXPECT_THROW(make_feature(parse_feature_spec(spec), FeatureContext{f, nullptr, gpu()}), InputError) << spec;
    return false;
  }
  return true;
}

// NaN where libvmaf wrote null, else the same bits.
bool same_value(double mine, const nlohmann::json& stored) {
  return stored.is_null() ? std::isnan(mine) : same_bits(mine, testing_vectors::stored_value(stored));
}

TEST_F(CudaTest, FloatSsimPublicVectorsEqualCpuAndLibvmaf) {
  if (!fs::exists(testing_vectors::kVmafVectors))
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  int compared = 0, stored = 0, pairs_scored = 0;
  for (const auto& pair : testing_vectors::load_vmaf_pairs()) {
    const std::vector<Picture> refs = vif_testing::read_pictures(pair.ref, pair.raw);
    const std::vector<Picture> dists = vif_testing::read_pictures(pair.dist, pair.raw);
    const VideoFormat f = refs.at(0).format;
    std::vector<FramePair> frames;
    for (size_t i = 0; i < refs.size(); ++i) frames.push_back({&refs[i], &dists[i], int64_t(i)});
    for (const char* run : float_ssim::testing::kRuns)
      for (const std::string key : {"float_ssim", "float_ms_ssim"}) {
        if (key == "float_ms_ssim" && std::string(run) != "float_ssim_ms_ssim") continue;
        const std::string spec =
            key == "float_ssim" && std::string(run) == "float_ssim_ctc" ? "float_ssim=scale=1:enable_db=true:clip_db=true"
                                                                        : key;
        if (!scoreable(f, spec)) continue;
        compared += compare_cpu_gpu_fp64_modes(f, spec, frames, pair.name);
        // And the GPU's values against libvmaf's stored ones.
        const nlohmann::json* want = float_ssim::testing::stored_frames(pair, run, key);
        if (!want) continue;
        ThreadPool pool(2);
        auto feature = make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, gpu()});
        std::vector<double> got(frames.size() * feature->outputs().size());
        feature->extract_batch(frames, got);
        for (const nlohmann::json& frame : *want) {
          const size_t i = frame.at("frameNum").get<size_t>();
          ASSERT_LT(i, frames.size()) << pair.name;
          const double mine = got[i * feature->outputs().size()];
          EXPECT_TRUE(same_value(mine, frame.at(key)))
              << pair.name << " " << run << " frame " << i << " " << key << ": gpu " << mine << " libvmaf "
              << frame.at(key);
          ++stored;
        }
      }
    ++pairs_scored;
  }
  std::printf("[ cuda     ] float_ssim public vectors: %d pairs, %d values equal to the CPU's, %d to libvmaf's\n",
              pairs_scored, compared, stored);
  EXPECT_GT(pairs_scored, 0);
  EXPECT_GE(stored, 141);
}

TEST_F(CudaTest, FloatSsimSeededPicturesEqualCpu) {
  struct Size {
    int w, h;
  };
  const Size sizes[] = {{1, 1},     {8, 8},     {17, 9},    {18, 10},   {11, 11},  {12, 13},
                        {37, 29},   {64, 33},   {175, 200}, {176, 176}, {177, 181}, {383, 385},
                        {384, 384}, {641, 361}, {1920, 1080}};
  std::mt19937_64 rng(0xf55'1a7e);
  int compared = 0;
  for (const Size s : sizes)
    for (const int bitdepth : {8, 10, 12, 16}) {
      const VideoFormat f{s.w, s.h, ChromaFormat::kMono, bitdepth};
      const int frames = s.w * s.h > 1'000'000 ? 2 : 3;
      std::vector<Picture> refs(size_t(frames) * 3), dists(refs.size());
      std::vector<FramePair> pairs;
      for (size_t i = 0; i < refs.size(); ++i) {
        fill_pair(refs[i], dists[i], f, Content(i % 3), rng);
        pairs.push_back({&refs[i], &dists[i], int64_t(i)});
      }
      for (const char* spec : kSpecs)
        if (scoreable(f, spec))
          compared += compare_cpu_gpu_fp64_modes(f, spec, pairs, fmt::format("seeded {}x{}", s.w, s.h));
    }
  std::printf("[ cuda     ] float_ssim seeded pictures: %d values equal to the CPU's\n", compared);
}

TEST_F(CudaTest, FloatSsim4kEqualsCpu) {
  std::mt19937_64 rng(0x4c);
  int compared = 0;
  for (const int bitdepth : {8, 16}) {
    const VideoFormat f{3840, 2160, ChromaFormat::k420, bitdepth};
    std::vector<Picture> refs(2), dists(2);
    std::vector<FramePair> pairs;
    for (size_t i = 0; i < refs.size(); ++i) {
      fill_pair(refs[i], dists[i], f, i == 0 ? Content::kNoisy : Content::kRandom, rng);
      pairs.push_back({&refs[i], &dists[i], int64_t(i)});
    }
    for (const char* spec : {"float_ssim=enable_lcs=true", "float_ssim=scale=1:enable_lcs=true:enable_db=true",
                             "float_ms_ssim=enable_lcs=true"})
      compared += compare_cpu_gpu_fp64_modes(f, spec, pairs, "4K");
  }
  std::printf("[ cuda     ] float_ssim 4K: %d values equal to the CPU's\n", compared);
}

// Batches of 1, 2, 3 and all frames (several lanes, chunks and batches), and a
// loose pair (pageable, scored alone).
TEST_F(CudaTest, FloatSsimBatchesAndLoosePairsEqualCpu) {
  const VideoFormat f{200, 190, ChromaFormat::k420, 10};
  std::mt19937_64 rng(0xba7c4);
  std::vector<Picture> refs(70), dists(70);
  std::vector<FramePair> all;
  for (size_t i = 0; i < refs.size(); ++i) {
    fill_pair(refs[i], dists[i], f, Content(i % 3), rng);
    all.push_back({&refs[i], &dists[i], int64_t(i)});
  }
  for (const char* spec : {"float_ssim=scale=1:enable_lcs=true", "float_ms_ssim=enable_lcs=true"}) {
    for (const size_t n : {size_t(1), size_t(2), size_t(3), all.size()})
      compare_cpu_gpu(f, spec, std::vector<FramePair>(all.begin(), all.begin() + long(n)),
                      fmt::format("batch of {}", n));
    ThreadPool pool(2);
    auto cpu = make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, nullptr});
    auto cuda = make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, gpu()});
    std::vector<double> want(cpu->outputs().size()), got(want.size());
    cpu->extract(refs[5], dists[5], want);
    cuda->extract(refs[5], dists[5], got);
    for (size_t k = 0; k < want.size(); ++k)
      EXPECT_TRUE(same_bits(got[k], want[k])) << spec << " loose pair " << cpu->outputs()[k];
  }
}

// The device sums' layout (device_term_layout.h) at its edges: MS-SSIM's five
// scales summed in one launch down to a last scale of 1, 2, 3 and 6 positions,
// float_ssim planes of 1 to 3 positions, each choice of terms; 67 frames (a
// chunk of 64, then a short one) of small pictures, and 7 frames of 1080p
// (chunks of 4 frames: one of 3, then single frames) with arrays of many blocks.
TEST_F(CudaTest, FloatSsimDeviceSumsAtLayoutEdgesEqualCpu) {
  struct Case {
    int w, h, frames;
    std::vector<const char*> specs;
  };
  const std::vector<const char*> ms = {"float_ms_ssim", "float_ms_ssim=enable_lcs=true"};
  const std::vector<const char*> one = {"float_ssim", "float_ssim=enable_lcs=true", "float_ssim=scale=1:enable_lcs=true"};
  const Case cases[] = {{176, 176, 67, ms},  {177, 176, 67, ms},  {193, 176, 67, ms},
                        {193, 181, 67, ms},  {11, 11, 67, one},   {12, 11, 67, one},
                        {13, 11, 67, one},   {1920, 1080, 7, ms}, {1920, 1080, 7, one}};
  std::mt19937_64 rng(0x1a70);
  int compared = 0;
  for (const Case& c : cases) {
    const VideoFormat f{c.w, c.h, ChromaFormat::k420, c.w > 1000 ? 8 : 10};
    std::vector<Picture> refs(size_t(c.frames)), dists(refs.size());
    std::vector<FramePair> pairs;
    for (size_t i = 0; i < refs.size(); ++i) {
      fill_pair(refs[i], dists[i], f, Content(i % 3), rng);
      pairs.push_back({&refs[i], &dists[i], int64_t(i)});
    }
    for (const char* spec : c.specs)
      compared += compare_cpu_gpu(f, spec, pairs, fmt::format("layout edge {}x{}, {} frames", c.w, c.h, c.frames));
  }
  std::printf("[ cuda     ] float_ssim device sums at layout edges: %d values equal to the CPU's\n", compared);
}

// float_ssim in one pass with vif and ssim on the same device (one upload for
// all), each equal to the CPU.
TEST_F(CudaTest, FloatSsimSharesTheUploadWithOtherFeatures) {
  const VideoFormat f{320, 240, ChromaFormat::k420, 8};
  std::mt19937_64 rng(0x5ea4ed);
  std::vector<Picture> refs(9), dists(9);
  std::vector<FramePair> pairs;
  for (size_t i = 0; i < refs.size(); ++i) {
    fill_pair(refs[i], dists[i], f, Content(i % 3), rng);
    pairs.push_back({&refs[i], &dists[i], int64_t(i)});
  }
  ThreadPool pool(2);
  const char* specs[] = {"float_ms_ssim=enable_lcs=true", "vif", "float_ssim=enable_lcs=true", "ssim"};
  std::vector<std::unique_ptr<Feature>> cpu, cuda;
  for (const char* spec : specs) {
    cpu.push_back(make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, nullptr}));
    cuda.push_back(make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, gpu()}));
  }
  for (size_t k = 0; k < cpu.size(); ++k) {
    const size_t n = cpu[k]->outputs().size();
    std::vector<double> want(pairs.size() * n), got(want.size());
    cpu[k]->extract_batch(pairs, want);
    cuda[k]->extract_batch(pairs, got);
    for (size_t i = 0; i < want.size(); ++i)
      EXPECT_TRUE(same_bits(got[i], want[i])) << specs[k] << " frame " << i / n << " " << cpu[k]->outputs()[i % n];
  }
}

// Every fp64 mode gives the CPU's bits: float_ssim with its box filter
// (scale 3, the decimation's tap sums), the CTC setting and MS-SSIM, emulated
// binary64 on sides from a window's 11 up, extreme and flat contents included.
TEST_F(CudaTest, FloatSsimFp64Option) {
  std::mt19937_64 rng(0xf964);
  int compared = 0;
  for (const VideoFormat f : {VideoFormat{64, 64, ChromaFormat::k420, 8}, VideoFormat{11, 12, ChromaFormat::k420, 16},
                              VideoFormat{181, 177, ChromaFormat::k420, 10}}) {
    std::vector<Picture> refs(3), dists(3);
    std::vector<FramePair> pairs;
    for (size_t i = 0; i < refs.size(); ++i) {
      fill_pair(refs[i], dists[i], f, Content(i % 3), rng);
      pairs.push_back({&refs[i], &dists[i], int64_t(i)});
    }
    for (const char* spec : {"float_ssim=enable_lcs=true", "float_ssim=scale=3:enable_lcs=true",
                             "float_ssim=scale=1:enable_db=true:clip_db=true", "float_ms_ssim=enable_lcs=true"})
      if (scoreable(f, spec))
        compared += compare_cpu_gpus(f, spec, {with_fp64(spec, "native"), with_fp64(spec, "emulate"),
                                               with_fp64(spec, "auto")},
                                     pairs, "fp64 modes");
  }
  std::printf("[ cuda     ] float_ssim fp64 modes: %d values equal to the CPU's\n", compared);
}

std::string without_fps(const fs::path& json) {
  std::ifstream in(json);
  std::stringstream kept;
  for (std::string line; std::getline(in, line);)
    if (line.find("\"fps\"") == std::string::npos) kept << line << '\n';
  return kept.str();
}

// exactvq --feature float_ssim ... --backend cuda writes the CPU's report.
TEST_F(CudaTest, FloatSsimCliOnCudaEqualsCpu) {
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / "cuda_float_ssim_cli";
  const vif_testing::Clip c = vif_testing::write_clip(dir, 208, 180, 10, 6, 0xc11);
  const std::string features[] = {
      "--feature float_ssim --feature float_ms_ssim",
      "--feature float_ssim=scale=1:enable_db=true:clip_db=true:enable_lcs=true --feature "
      "float_ms_ssim=enable_lcs=true:enable_db=true",
  };
  for (const std::string& feature : features) {
    std::string reports[2];
    for (const char* backend : {"cpu", "cuda"}) {
      const fs::path out = dir / fmt::format("{}.json", backend);
      fs::remove(out);
      const std::string cmd = fmt::format("'{}' -r '{}' -d '{}' {} --backend {} --precision max --json -o '{}'",
                                          EXACTVQ_CLI_PATH, c.ref.string(), c.dist.string(), feature, backend,
                                          out.string());
      ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
      reports[std::string(backend) == "cuda"] = without_fps(out);
    }
    EXPECT_FALSE(reports[0].empty());
    EXPECT_EQ(reports[1], reports[0]) << feature;
  }
}

}  // namespace
}  // namespace exactvq::cudatest
