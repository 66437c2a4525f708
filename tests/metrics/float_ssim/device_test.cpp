// float_ssim and float_ms_ssim on every device backend against the CPU, bit
// for bit: every public vector pair (and libvmaf's stored values), seeded
// pictures of many sizes and every depth under the options, the fp64 option
// (every mode the CPU's bits), and the command line. CUDA scores every public
// frame and its binary64 steps native and emulated (fp64=native, fp64=emulate;
// the CPU scores once); OpenCL (softfp) the first frame of each pair and the
// sizes PoCL affords, or everything with EXACTVQ_OPENCL_FLOAT_SSIM_ALL=1.
// CUDA's own cases follow: 4K, batches and loose pairs, the device sums'
// layout edges, a run shared with other features (OpenCL's own are in
// opencl_test.cpp). Without a device a backend's cases skip with a message.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "device_fixture.h"
#include "metrics/float_ssim/float_ssim_vectors.h"
#include "metrics/float_ssim/reference.h"
#include "metrics/vif/vif_clips.h"

namespace exactvq::device_testing {
namespace {

namespace fs = std::filesystem;

// OpenCL's larger sweeps (every public frame, 1080p), for runs that can afford
// PoCL's time.
bool opencl_everything() {
  const char* v = std::getenv("EXACTVQ_OPENCL_FLOAT_SSIM_ALL");
  return v && std::string(v) == "1";
}

// Whether the CPU scores `spec` on pictures of `f` (InputError: libvmaf gives no
// value, e.g. MS-SSIM under 176); the device must refuse the same.
bool scoreable(const VideoFormat& f, const std::string& spec,
               const std::shared_ptr<Device>& device) {
  try {
    make_feature(parse_feature_spec(spec), FeatureContext{f, nullptr, nullptr});
  } catch (const InputError&) {
    EXPECT_THROW(make_feature(parse_feature_spec(spec), FeatureContext{f, nullptr, device}),
                 InputError)
        << spec;
    return false;
  }
  return true;
}

// NaN where libvmaf wrote null, else the same bits.
bool same_value(double mine, const nlohmann::json& stored) {
  return stored.is_null() ? std::isnan(mine)
                          : same_bits(mine, testing_vectors::stored_value(stored));
}

// `pairs` scored with `spec` on `device` in one batch.
std::vector<double> score_on(const std::shared_ptr<Device>& device, const VideoFormat& f,
                             const std::string& spec, const std::vector<FramePair>& pairs) {
  ThreadPool pool(2);
  auto feature = make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, device});
  std::vector<double> got(pairs.size() * feature->outputs().size());
  feature->extract_batch(pairs, got);
  return got;
}

class FloatSsimOnDevice : public DeviceTest {};

TEST_P(FloatSsimOnDevice, PublicVectorsEqualCpuAndLibvmaf) {
  if (!fs::exists(testing_vectors::kVmafVectors))
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  const bool all = backend() != Backend::kOpenCL || opencl_everything();
  int compared = 0, stored = 0, pairs_scored = 0;
  for_each_vmaf_pair([&](const testing_vectors::VmafPair& pair, const PictureFrames& pictures) {
    const VideoFormat f = pictures.format();
    const std::vector<FramePair> frames(
        pictures.pairs.begin(), pictures.pairs.begin() + (all ? long(pictures.pairs.size()) : 1));
    for (const char* run : float_ssim::testing::kRuns)
      for (const std::string key : {"float_ssim", "float_ms_ssim"}) {
        const bool ctc = std::string(run) == "float_ssim_ctc";
        if (key == "float_ms_ssim" && ctc) continue;
        const std::string spec =
            key == "float_ssim" && ctc ? "float_ssim=scale=1:enable_db=true:clip_db=true" : key;
        if (!scoreable(f, spec, device())) continue;
        const std::vector<std::string> specs = device_specs(spec);
        const DeviceComparison r = compare_on_device(device(), f, spec, specs, frames, pair.name);
        compared += r.compared;
        // And the device's values of the spec itself against libvmaf's stored ones.
        const nlohmann::json* want = float_ssim::testing::stored_frames(pair, run, key);
        if (!want) continue;
        const std::vector<double> got =
            specs == std::vector<std::string>{spec} ? r.got : score_on(device(), f, spec, frames);
        const size_t n = got.size() / frames.size();
        for (const nlohmann::json& frame : *want) {
          const size_t i = frame.at("frameNum").get<size_t>();
          EXPECT_TRUE(!all || i < frames.size()) << pair.name;
          if (i >= frames.size()) continue;  // frames past the first, on OpenCL in CI
          const double mine = got[i * n];
          EXPECT_TRUE(same_value(mine, frame.at(key)))
              << pair.name << " " << run << " frame " << i << " " << key << ": device " << mine
              << " libvmaf " << frame.at(key);
          ++stored;
        }
      }
    ++pairs_scored;
  });
  std::printf(
      "%s float_ssim public vectors (%s): %d pairs, %d values equal to the CPU's, %d to "
      "libvmaf's\n",
      tag().c_str(), all ? "every frame" : "first frames; EXACTVQ_OPENCL_FLOAT_SSIM_ALL=1 for all",
      pairs_scored, compared, stored);
  EXPECT_GT(pairs_scored, 0);
  EXPECT_GE(stored, all ? 141 : 30);
}

// What each backend scores of the seeded pictures.
struct SeededPlan {
  struct Size {
    int w, h;
    std::vector<int> depths;
  };
  std::vector<Size> sizes;
  uint64_t seed;
  size_t pictures, large_pictures;  // large: over 1,000,000 samples
  std::vector<const char*> specs;
};

SeededPlan seeded_plan(Backend b) {
  const std::vector<int> every = {8, 10, 12, 16};
  if (b == Backend::kCuda)
    return {{{1, 1, every},
             {8, 8, every},
             {17, 9, every},
             {18, 10, every},
             {11, 11, every},
             {12, 13, every},
             {37, 29, every},
             {64, 33, every},
             {175, 200, every},
             {176, 176, every},
             {177, 181, every},
             {383, 385, every},
             {384, 384, every},
             {641, 361, every},
             {1920, 1080, every}},
            0xf55'1a7e,
            9,
            6,
            {
                "float_ssim",
                "float_ssim=enable_lcs=true",
                "float_ssim=scale=1:enable_db=true:clip_db=true",  // the AOM CTC setting
                "float_ssim=scale=1:enable_lcs=true:enable_db=true",
                "float_ssim=scale=2:enable_lcs=true",
                "float_ssim=scale=3:enable_db=true:clip_db=true",
                "float_ms_ssim",
                "float_ms_ssim=enable_lcs=true:enable_db=true:clip_db=true",
            }};
  // Small and odd sizes (no window, a side of 10, one position), MS-SSIM's
  // least size and its neighbours, an automatic scale of 2; 175 x 200 is
  // refused by MS-SSIM on both.
  SeededPlan plan{{{1, 1, every},
                   {17, 9, every},
                   {18, 10, every},
                   {11, 11, every},
                   {12, 13, every},
                   {37, 29, every},
                   {175, 200, {8}},
                   {176, 176, every},
                   {177, 181, {10, 16}},
                   {193, 179, {8, 12}},
                   {384, 385, {8, 16}}},
                  0xf55'0c1,
                  3,
                  3,
                  {
                      "float_ssim=enable_lcs=true",
                      "float_ssim=scale=1:enable_db=true:clip_db=true",  // the AOM CTC setting
                      "float_ssim=scale=3:enable_lcs=true:enable_db=true",
                      "float_ms_ssim=enable_lcs=true:enable_db=true:clip_db=true",
                  }};
  if (opencl_everything()) plan.sizes.push_back({1920, 1080, every});
  return plan;
}

TEST_P(FloatSsimOnDevice, SeededPicturesEqualCpu) {
  const SeededPlan plan = seeded_plan(backend());
  std::mt19937_64 rng(plan.seed);
  int compared = 0;
  for (const SeededPlan::Size& s : plan.sizes)
    for (const int bitdepth : s.depths) {
      const VideoFormat f{s.w, s.h, ChromaFormat::kMono, bitdepth};
      const PictureFrames frames =
          seeded_frames(f, long(s.w) * s.h > 1'000'000 ? plan.large_pictures : plan.pictures, rng);
      for (const char* spec : plan.specs)
        if (scoreable(f, spec, device()))
          compared +=
              compare(f, spec, frames.pairs, fmt::format("seeded {}x{}", s.w, s.h)).compared;
    }
  std::printf("%s float_ssim seeded pictures: %d values equal to the CPU's\n", tag().c_str(),
              compared);
}

// What each backend scores with each fp64 mode.
struct Fp64Plan {
  std::vector<VideoFormat> formats;
  std::vector<Content> contents;  // one picture pair each
  std::vector<const char*> specs;
};

Fp64Plan fp64_plan(Backend b) {
  if (b == Backend::kCuda)
    // Its box filter (scale 3, the decimation's tap sums), the CTC setting and
    // MS-SSIM, on sides from a window's 11 up, extreme and flat contents included.
    return {
        {VideoFormat{64, 64, ChromaFormat::k420, 8}, VideoFormat{11, 12, ChromaFormat::k420, 16},
         VideoFormat{181, 177, ChromaFormat::k420, 10}},
        {Content::kRandom, Content::kNoisy, Content::kExtremes},
        {"float_ssim=enable_lcs=true", "float_ssim=scale=3:enable_lcs=true",
         "float_ssim=scale=1:enable_db=true:clip_db=true", "float_ms_ssim=enable_lcs=true"}};
  // Every binary64 step is softfp's: the option changes nothing.
  return {{VideoFormat{64, 48, ChromaFormat::k420, 8}},
          {Content::kNoisy},
          {"float_ssim=enable_lcs=true"}};
}

// Every fp64 mode gives the CPU's bits.
TEST_P(FloatSsimOnDevice, Fp64OptionGivesTheCpuBits) {
  const Fp64Plan plan = fp64_plan(backend());
  std::mt19937_64 rng(0xf964);
  int compared = 0;
  for (const VideoFormat& f : plan.formats) {
    const PictureFrames frames =
        seeded_frames(f, plan.contents.size(), rng, [&](size_t i) { return plan.contents[i]; });
    for (const char* spec : plan.specs)
      if (scoreable(f, spec, device()))
        compared += compare_on_device(device(), f, spec,
                                      {with_fp64(spec, "native"), with_fp64(spec, "emulate"),
                                       with_fp64(spec, "auto")},
                                      frames.pairs, "fp64 modes")
                        .compared;
  }
  std::printf("%s float_ssim fp64 modes: %d values equal to the CPU's\n", tag().c_str(), compared);
}

std::string without_fps(const fs::path& json) {
  std::ifstream in(json);
  std::stringstream kept;
  for (std::string line; std::getline(in, line);)
    if (line.find("\"fps\"") == std::string::npos) kept << line << '\n';
  return kept.str();
}

// exactvq --feature float_ssim ... --backend <device> writes the CPU's report (but fps).
TEST_P(FloatSsimOnDevice, CliOnDeviceEqualsCpu) {
  const bool cuda = backend() == Backend::kCuda;
  const std::string name = backend_name(backend());
  const fs::path dir = fs::path(EXACTVQ_TEST_TMP) / (name + "_float_ssim_cli");
  const vif_testing::Clip c = cuda ? vif_testing::write_clip(dir, 208, 180, 10, 6, 0xc11)
                                   : vif_testing::write_clip(dir, 190, 178, 10, 3, 0xc12);
  std::vector<std::string> features = {
      "--feature float_ssim=scale=1:enable_db=true:clip_db=true:enable_lcs=true --feature "
      "float_ms_ssim=enable_lcs=true:enable_db=true -n"};
  if (cuda) features.insert(features.begin(), "--feature float_ssim --feature float_ms_ssim -n");
  for (const std::string& feature : features) {
    std::string reports[2];
    for (const std::string& backend : {std::string("cpu"), name}) {
      const fs::path out = dir / fmt::format("{}.json", backend);
      fs::remove(out);
      const std::string cmd = fmt::format(
          "'{}' -r '{}' -d '{}' {} --backend {} --precision max --json -o '{}'", EXACTVQ_CLI_PATH,
          c.ref.string(), c.dist.string(), feature, backend, out.string());
      ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
      reports[backend == name] = without_fps(out);
    }
    EXPECT_FALSE(reports[0].empty());
    EXPECT_EQ(reports[1], reports[0]) << feature;
  }
}

EXACTVQ_ON_EVERY_DEVICE_BACKEND(FloatSsimOnDevice);

// ---- CUDA's own: its lanes, chunks, batches and sums.

class FloatSsimOnCuda : public OneBackendTest<Backend::kCuda> {
 protected:
  static int compare(const VideoFormat& f, const std::string& spec,
                     const std::vector<FramePair>& pairs, const std::string& what) {
    return compare_on_device(device(), f, spec, {spec}, pairs, what).compared;
  }
  static int compare_fp64_modes(const VideoFormat& f, const std::string& spec,
                                const std::vector<FramePair>& pairs, const std::string& what) {
    return compare_on_device(device(), f, spec,
                             {with_fp64(spec, "native"), with_fp64(spec, "emulate")}, pairs, what)
        .compared;
  }
};

TEST_F(FloatSsimOnCuda, FourKEqualsCpu) {
  std::mt19937_64 rng(0x4c);
  int compared = 0;
  for (const int bitdepth : {8, 16}) {
    const VideoFormat f{3840, 2160, ChromaFormat::k420, bitdepth};
    const PictureFrames frames = seeded_frames(
        f, 2, rng, [](size_t i) { return i == 0 ? Content::kNoisy : Content::kRandom; });
    for (const char* spec :
         {"float_ssim=enable_lcs=true", "float_ssim=scale=1:enable_lcs=true:enable_db=true",
          "float_ms_ssim=enable_lcs=true"})
      compared += compare_fp64_modes(f, spec, frames.pairs, "4K");
  }
  std::printf("[ cuda     ] float_ssim 4K: %d values equal to the CPU's\n", compared);
}

// Batches of 1, 2, 3 and all frames (several lanes, chunks and batches), and a
// loose pair (pageable, scored alone).
TEST_F(FloatSsimOnCuda, BatchesAndLoosePairsEqualCpu) {
  const VideoFormat f{200, 190, ChromaFormat::k420, 10};
  std::mt19937_64 rng(0xba7c4);
  const PictureFrames frames = seeded_frames(f, 70, rng);
  const std::vector<FramePair>& all = frames.pairs;
  for (const char* spec : {"float_ssim=scale=1:enable_lcs=true", "float_ms_ssim=enable_lcs=true"}) {
    for (const size_t n : {size_t(1), size_t(2), size_t(3), all.size()})
      compare(f, spec, std::vector<FramePair>(all.begin(), all.begin() + long(n)),
              fmt::format("batch of {}", n));
    ThreadPool pool(2);
    auto cpu = make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, nullptr});
    auto cuda = make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, device()});
    std::vector<double> want(cpu->outputs().size()), got(want.size());
    cpu->extract(frames.refs[5], frames.dists[5], want);
    cuda->extract(frames.refs[5], frames.dists[5], got);
    for (size_t k = 0; k < want.size(); ++k)
      EXPECT_TRUE(same_bits(got[k], want[k])) << spec << " loose pair " << cpu->outputs()[k];
  }
}

// The device sums' layout (device_term_layout.h) at its edges: MS-SSIM's five
// scales summed in one launch down to a last scale of 1, 2, 3 and 6 positions,
// float_ssim planes of 1 to 3 positions, each choice of terms; 67 frames (a
// chunk of 64, then a short one) of small pictures, and 7 frames of 1080p
// (chunks of 4 frames: one of 3, then single frames) with arrays of many blocks.
TEST_F(FloatSsimOnCuda, DeviceSumsAtLayoutEdgesEqualCpu) {
  struct Case {
    int w, h, frames;
    std::vector<const char*> specs;
  };
  const std::vector<const char*> ms = {"float_ms_ssim", "float_ms_ssim=enable_lcs=true"};
  const std::vector<const char*> one = {"float_ssim", "float_ssim=enable_lcs=true",
                                        "float_ssim=scale=1:enable_lcs=true"};
  const Case cases[] = {{176, 176, 67, ms}, {177, 176, 67, ms},  {193, 176, 67, ms},
                        {193, 181, 67, ms}, {11, 11, 67, one},   {12, 11, 67, one},
                        {13, 11, 67, one},  {1920, 1080, 7, ms}, {1920, 1080, 7, one}};
  std::mt19937_64 rng(0x1a70);
  int compared = 0;
  for (const Case& c : cases) {
    const VideoFormat f{c.w, c.h, ChromaFormat::k420, c.w > 1000 ? 8 : 10};
    const PictureFrames frames = seeded_frames(f, size_t(c.frames), rng);
    for (const char* spec : c.specs)
      compared += compare(f, spec, frames.pairs,
                          fmt::format("layout edge {}x{}, {} frames", c.w, c.h, c.frames));
  }
  std::printf("[ cuda     ] float_ssim device sums at layout edges: %d values equal to the CPU's\n",
              compared);
}

// float_ssim in one pass with vif and ssim on the same device (one upload for
// all), each equal to the CPU.
TEST_F(FloatSsimOnCuda, SharesTheUploadWithOtherFeatures) {
  const VideoFormat f{320, 240, ChromaFormat::k420, 8};
  std::mt19937_64 rng(0x5ea4ed);
  const PictureFrames frames = seeded_frames(f, 9, rng);
  const std::vector<FramePair>& pairs = frames.pairs;
  ThreadPool pool(2);
  const char* specs[] = {"float_ms_ssim=enable_lcs=true", "vif", "float_ssim=enable_lcs=true",
                         "ssim"};
  std::vector<std::unique_ptr<Feature>> cpu, cuda;
  for (const char* spec : specs) {
    cpu.push_back(make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, nullptr}));
    cuda.push_back(make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, device()}));
  }
  for (size_t k = 0; k < cpu.size(); ++k) {
    const size_t n = cpu[k]->outputs().size();
    std::vector<double> want(pairs.size() * n), got(want.size());
    cpu[k]->extract_batch(pairs, want);
    cuda[k]->extract_batch(pairs, got);
    for (size_t i = 0; i < want.size(); ++i)
      EXPECT_TRUE(same_bits(got[i], want[i]))
          << specs[k] << " frame " << i / n << " " << cpu[k]->outputs()[i % n];
  }
}

}  // namespace
}  // namespace exactvq::device_testing
