// psnr_hvs on every device backend: libvmaf's catalogue values
// (libvmaf_catalogue_scores.json, run psnr_hvs) through `--backend cuda|opencl`
// on the command line, every per-frame and pooled value bit for bit where
// libvmaf scored (perturb_stable everywhere there), the same refusals as the
// CPU's for deep input and planes under 8x8; and seeded random pairs of 8 to 12
// bits, every chroma format and odd sizes against the CPU feature, in one batch
// and as loose pairs. And the CTC presets, which include psnr_hvs, on the
// device: each runs whole with the CPU's values, or is refused in one error
// naming every feature of it that has no engine there (whichever those are in
// this build). On OpenCL, both programs (the device's correctly rounded `/` and
// sqrt, and softfp's) against the reference. Without a device a backend's cases
// skip with a message.
#include <array>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/ctc_presets.h"
#include "cli/exit_status.h"
#include "device_fixture.h"
#include "metrics/psnr_hvs/engine.h"
#include "metrics/psnr_hvs/psnr_hvs_feature.h"
#include "metrics/psnr_hvs/reference.h"
#include "psnr_hvs_catalogue.h"

#ifdef EXACTVQ_HAVE_OPENCL
#include "backends/opencl/opencl_device.h"
#endif

namespace exactvq::device_testing {
namespace {

namespace catalogue = psnr_hvs_testing;
using nlohmann::json;

class PsnrHvsOnDevice : public DeviceTest {
 protected:
  std::vector<std::string> backend_args() const {
    return {"--backend", std::string(backend_name(backend()))};
  }
};

// Whether the CPU feature refuses the format (check_input), and its message.
std::string refusal(const VideoFormat& f) {
  try {
    psnr_hvs::check_input(f);
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

TEST_P(PsnrHvsOnDevice, CatalogueEqualsLibvmafThroughTheCommandLine) {
  if (!std::filesystem::exists(catalogue::kCatalogue))
    GTEST_SKIP() << "no catalogue at " << catalogue::kCatalogue << ": libvmaf comparison skipped";
  int compared = 0, pooled = 0, refused_size = 0, refused_depth = 0;
  for (const catalogue::CataloguePair& p : catalogue::load_catalogue()) {
    const int rc = int(p.run.at("rc").get<double>());
    const clitest::RunResult r = catalogue::run_exactvq(p, "2", backend_args());
    if (rc == 234) {  // libvmaf: invalid bit depth; the device refuses as the CPU does
      catalogue::expect_refused_for_depth(p, r);
      ++refused_depth;
      continue;
    }
    const std::vector<Picture> refs = read_pictures(p.ref, p.raw);
    ASSERT_FALSE(refs.empty()) << p.name;
    const std::string why = refusal(refs[0].format);
    if (!why.empty()) {  // a plane under 8x8: the CPU's message, no output
      EXPECT_EQ(r.status, kExitPicture) << p.name;
      EXPECT_NE(r.err.find(why), std::string::npos) << p.name << ": " << clitest::describe(r);
      EXPECT_TRUE(r.out.empty()) << p.name;
      ++refused_size;
      continue;
    }
    ASSERT_EQ(rc, 0) << p.name;
    ASSERT_TRUE(p.run.at("perturb_stable").get<bool>()) << p.name;
    ASSERT_EQ(r.status, 0) << p.name << ": " << clitest::describe(r);
    const json out = json::parse(testing_vectors::signed_zeros_kept(r.out));
    const json& frames = out.at("frames");
    ASSERT_EQ(frames.size(), p.run.at("frames").size()) << p.name;
    for (size_t i = 0; i < frames.size(); ++i)
      for (const char* key : catalogue::kKeys) {
        const json& want = p.run.at("frames")[i].at(key);
        const json& mine = frames[i].at("metrics").at(key);
        EXPECT_TRUE(catalogue::same_value(mine, want))
            << p.name << " frame " << i << " " << key << ": " << mine << " vs libvmaf " << want;
        ++compared;
      }
    for (const char* key : catalogue::kKeys)
      for (const char* stat : catalogue::kPooled) {
        const json& want = p.run.at("pooled").at(key).at(stat);
        const json& mine = out.at("pooled_metrics").at(key).at(stat);
        EXPECT_TRUE(catalogue::same_value(mine, want))
            << p.name << " pooled " << key << " " << stat << ": " << mine << " vs libvmaf " << want;
        ++pooled;
      }
  }
  std::printf(
      "%s psnr_hvs catalogue: %d per-frame and %d pooled values == libvmaf bit for bit; %d pairs "
      "refused for size, %d for depth, as on the CPU\n",
      tag().c_str(), compared, pooled, refused_size, refused_depth);
  EXPECT_EQ(refused_depth, 3);
  EXPECT_EQ(refused_size, 6);
  EXPECT_GT(compared, 0);
}

TEST_P(PsnrHvsOnDevice, SeededPairsEqualCpu) {
  std::mt19937_64 rng(0x95'4e'0d);
  const int sizes[][2] = {{8, 8}, {16, 16}, {15, 22}, {23, 17}, {64, 36}, {129, 71}, {301, 97}};
  const ChromaFormat chromas[] = {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444};
  int compared = 0, cases = 0;
  for (const auto& s : sizes)
    for (ChromaFormat chroma : chromas)
      for (int bits : {8, 10, 12}) {
        const VideoFormat f{s[0], s[1], chroma, bits};
        if (!refusal(f).empty()) continue;
        const PictureFrames frames = seeded_frames(f, 3, rng);
        const Pace pace = cases % 2 ? Pace::kLoosePairs : Pace::kOneBatch;
        compared +=
            compare_on_device(device(), f, "psnr_hvs", {"psnr_hvs"}, frames.pairs, "seeded", pace)
                .compared;
        ++cases;
      }
  std::printf("%s psnr_hvs seeded pairs: %d formats, %d values == cpu bit for bit\n", tag().c_str(),
              cases, compared);
  EXPECT_GT(cases, 40);
}

#ifdef EXACTVQ_HAVE_OPENCL
// OpenCL's two programs, the device's binary32 `/` and sqrt (where it rounds them
// correctly on request, as the engine chooses) and softfp's: each engine's sums equal
// the reference's bit for bit on seeded pairs.
class PsnrHvsOnOpencl : public OneBackendTest<Backend::kOpenCL> {};

TEST_F(PsnrHvsOnOpencl, DeviceAndSoftfpDivisionsGiveTheReferenceBits) {
  const bool ieee = opencl::OpenclDevice::of(*device())->context().rounds_divide_sqrt_correctly();
  std::mt19937_64 rng(0x95'd1'5a);
  int compared = 0;
  for (const auto [w, h] : {std::array{16, 16}, std::array{23, 17}, std::array{129, 71}})
    for (ChromaFormat chroma : {ChromaFormat::k420, ChromaFormat::k444})
      for (int bits : {8, 10, 12}) {
        const VideoFormat f{w, h, chroma, bits};
        const PictureFrames frames = seeded_frames(f, 3, rng);
        std::vector<float> want;
        for (const FramePair& pair : frames.pairs)
          for (int p = 0; p < 3; ++p)
            want.push_back(
                psnr_hvs::plane_error_sum_reference(pair.ref->plane(p), pair.dist->plane(p), p));
        for (bool softfp : {false, true}) {
          psnr_hvs::EngineSetup setup{f, 3};
          setup.softfp_divide_sqrt = softfp;
          std::vector<float> got(want.size());
          psnr_hvs::make_engine(*device(), setup)->score(frames.pairs, got);
          ASSERT_EQ(std::memcmp(got.data(), want.data(), want.size() * sizeof(float)), 0)
              << f.describe() << (softfp ? ", softfp" : ", the device's / and sqrt");
          compared += int(want.size());
        }
      }
  std::printf(
      "[ opencl   ] psnr_hvs: the device %s binary32 / and sqrt correctly on request; %d sums of "
      "its default program and of softfp's == the reference bit for bit\n",
      ieee ? "rounds" : "does not round", compared);
}
#endif

TEST_P(PsnrHvsOnDevice, RefusesAsTheCpu) {
  ThreadPool pool(1);
  const VideoFormat formats[] = {{64, 64, ChromaFormat::k420, 16},
                                 {14, 14, ChromaFormat::k420, 8},
                                 {7, 30, ChromaFormat::k444, 10},
                                 {64, 64, ChromaFormat::kMono, 8}};
  for (const VideoFormat& f : formats) {
    const std::string want = refusal(f);
    ASSERT_FALSE(want.empty()) << f.describe();
    try {
      make_feature(parse_feature_spec("psnr_hvs"), FeatureContext{f, &pool, device()});
      ADD_FAILURE() << f.describe() << ": the device did not refuse";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), want) << f.describe();
    }
  }
}

// The features of `preset` ("--aom_ctc v6.0") that have no engine on `device`,
// for pictures of format f, in the preset's order.
std::vector<std::string> without_engine(const std::string& option, const std::string& version,
                                        const VideoFormat& f,
                                        const std::shared_ptr<Device>& device) {
  CliScoreList list;
  if (option == "--aom_ctc")
    apply_aom_ctc(version, list);
  else
    apply_nflx_ctc(version, list);
  ThreadPool pool(1);
  std::vector<std::string> missing;
  for (const std::string& spec : list.features) try {
      make_feature(parse_feature_spec(spec), FeatureContext{f, &pool, device});
    } catch (const NoEngineError& e) {
      missing.push_back(e.feature());
    }
  return missing;
}

TEST_P(PsnrHvsOnDevice, CtcPresetsRunWholeOrNameWhatBlocksThem) {
  const std::filesystem::path dir =
      catalogue::kCatalogue.parent_path() / "p8_420_576x324_testsrc2_x264";
  if (!std::filesystem::exists(dir / "ref.y4m"))
    GTEST_SKIP() << "no shared vectors at " << dir << ": preset check skipped";
  const std::string ref = (dir / "ref.y4m").string(), dist = (dir / "dist.y4m").string();
  const VideoFormat f = read_pictures(dir / "ref.y4m", RawOptions{})[0].format;
  std::vector<std::pair<std::string, std::string>> presets;
  for (const std::string& v : aom_ctc_versions()) presets.emplace_back("--aom_ctc", v);
  for (const std::string& v : nflx_ctc_versions()) presets.emplace_back("--nflx_ctc", v);
  int whole = 0, refused = 0;
  for (const auto& [option, version] : presets) {
    const std::vector<std::string> missing = without_engine(option, version, f, device());
    const std::vector<std::string> args{"-q",    "-r",     ref,           "-d",  dist, option,
                                        version, "--json", "--precision", "max", "-o", "-"};
    std::vector<std::string> on_device = args;
    on_device.insert(on_device.end(), {"--backend", std::string(backend_name(backend()))});
    const clitest::RunResult r = clitest::run_cli(on_device);
    const std::string what = option + " " + version;
    if (missing.empty()) {
      ASSERT_EQ(r.status, 0) << what << ": " << clitest::describe(r);
      const clitest::RunResult cpu = clitest::run_cli(args);
      ASSERT_EQ(cpu.status, 0) << what << ": " << clitest::describe(cpu);
      const json mine = json::parse(r.out), want = json::parse(cpu.out);
      EXPECT_EQ(mine.at("frames"), want.at("frames")) << what;
      EXPECT_EQ(mine.at("pooled_metrics"), want.at("pooled_metrics")) << what;
      ++whole;
      continue;
    }
    EXPECT_EQ(r.status, kExitFailure) << what << ": " << clitest::describe(r);
    EXPECT_TRUE(r.out.empty()) << what;
    const std::string names = fmt::format("{}", fmt::join(missing, ", "));
    const std::string want = missing.size() == 1
                                 ? fmt::format("feature {} is not available on", names)
                                 : fmt::format("features {} are not available on", names);
    EXPECT_NE(r.err.find(want), std::string::npos) << what << ": " << clitest::describe(r);
    ++refused;
  }
  std::printf(
      "%s CTC presets: %d run whole with the CPU's values, %d refused naming every "
      "feature without an engine\n",
      tag().c_str(), whole, refused);
}

// CUDA: runs of several batches of several chunks on every lane, whose
// chunks write their terms in their places in the batch's and whose planes'
// sums then run in one launch a batch. 1 Mpixel frames make chunks of 8 (the
// runner's 8 Mpixel a launch) and batches of 64 (unless the environment caps
// them lower), the last chunk of each batch split into single frames; 150
// frames: two full batches and a short one. Every sum and score the CPU's bits.
using PsnrHvsOnCuda = OneBackendTest<Backend::kCuda>;

TEST_F(PsnrHvsOnCuda, RunsOfSeveralBatchesEqualCpu) {
  std::mt19937_64 rng(0x95'ba'7c);
  int compared = 0;
  for (int bits : {8, 10}) {
    const VideoFormat f{1024, 1024, ChromaFormat::k420, bits};
    const PictureFrames frames = seeded_frames(f, 150, rng);
    compared += compare_on_device(device(), f, "psnr_hvs", {"psnr_hvs"}, frames.pairs, "150 frames")
                    .compared;
  }
  std::printf("[ cuda     ] psnr_hvs over several batches: %d values == cpu bit for bit\n",
              compared);
  EXPECT_GT(compared, 2 * 150);
}

EXACTVQ_ON_EVERY_DEVICE_BACKEND(PsnrHvsOnDevice);

}  // namespace
}  // namespace exactvq::device_testing
