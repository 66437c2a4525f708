// psnr_hvs on every device backend: libvmaf's catalogue values
// (libvmaf_catalogue_scores.json, run psnr_hvs) through `--backend cuda|opencl`
// on the command line, every per-frame and pooled value bit for bit where
// libvmaf scored (perturb_stable everywhere there), the same refusals as the
// CPU's for deep input and planes under 8x8; and seeded random pairs of 8 to 12
// bits, every chroma format and odd sizes against the CPU feature, in one batch
// and as loose pairs. Without a device a backend's cases skip with a message.
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "device_fixture.h"
#include "metrics/psnr_hvs/psnr_hvs_feature.h"
#include "psnr_hvs_catalogue.h"

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
      EXPECT_NE(r.status, 0) << p.name;
      EXPECT_NE(
          r.err.find(fmt::format("feature psnr_hvs cannot score {}-bit input", *p.raw.bitdepth)),
          std::string::npos)
          << p.name << ": " << clitest::describe(r);
      EXPECT_TRUE(r.out.empty()) << p.name;
      ++refused_depth;
      continue;
    }
    const std::vector<Picture> refs = read_pictures(p.ref, p.raw);
    ASSERT_FALSE(refs.empty()) << p.name;
    const std::string why = refusal(refs[0].format);
    if (!why.empty()) {  // a plane under 8x8: the CPU's message, no output
      EXPECT_NE(r.status, 0) << p.name;
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

EXACTVQ_ON_EVERY_DEVICE_BACKEND(PsnrHvsOnDevice);

}  // namespace
}  // namespace exactvq::device_testing
