// ciede on every device backend against libvmaf's catalogue and the CPU, bit
// for bit: the catalogue's ciede run (every value wherever libvmaf's run is its
// definition, rc 0 and perturb_stable; elsewhere the CPU's, which are the
// definition's), and seeded random pairs at 8, 10, 12 and 16 bits in 4:2:0,
// 4:2:2 and 4:4:4. CUDA scores each set in one batch under fp64=native and
// fp64=emulate, OpenCL (softfp) frame by frame as loose pairs. Without a device a backend's cases
// skip with a message.
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "device_fixture.h"
#include "libvmaf_vmaf_vectors.h"

namespace exactvq::device_testing {
namespace {

namespace fs = std::filesystem;

class CiedeOnDevice : public DeviceTest {
 protected:
  DeviceComparison compare(const VideoFormat& f, const std::vector<FramePair>& pairs,
                           const std::string& what) const {
    const Pace pace = backend() == Backend::kCuda ? Pace::kOneBatch : Pace::kLoosePairs;
    return compare_on_device(device(), f, "ciede", device_specs("ciede"), pairs, what, pace);
  }
};

TEST_P(CiedeOnDevice, CatalogueVectorsEqualLibvmafAndCpu) {
  if (!fs::exists(testing_vectors::kCatalogueVectors))
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kCatalogueVectors
                 << ": catalogue skipped";
  int runs = 0, libvmaf_values = 0, cpu_values = 0;
  for (const testing_vectors::VmafPair& p :
       testing_vectors::load_vmaf_pairs(testing_vectors::kCatalogueVectors)) {
    const nlohmann::json& runs_of = p.info.at("runs");
    if (!runs_of.contains("ciede")) continue;
    SCOPED_TRACE(p.name);
    const nlohmann::json& run = runs_of.at("ciede");
    const PictureFrames pictures(read_pictures(p.ref, p.raw), read_pictures(p.dist, p.raw));
    const DeviceComparison c = compare(pictures.format(), pictures.pairs, p.name);
    cpu_values += c.compared;
    ++runs;
    if (run.at("rc").get<int>() != 0 || !run.value("perturb_stable", false)) continue;
    const nlohmann::json& frames = run.at("frames");
    ASSERT_EQ(c.got.size(), frames.size());
    for (size_t i = 0; i < frames.size(); ++i, ++libvmaf_values) {
      const nlohmann::json& v = frames[i].at("ciede2000");
      const double want = v.is_null() ? std::numeric_limits<double>::infinity() : v.get<double>();
      EXPECT_TRUE(same_bits(c.got[i], want))
          << "frame " << i << ": device " << fmt::format("{:a}", c.got[i]) << ", libvmaf "
          << fmt::format("{:a}", want);
    }
  }
  std::printf("%s ciede catalogue: %d runs, %d values equal libvmaf's bits, %d equal the CPU's\n",
              tag().c_str(), runs, libvmaf_values, cpu_values);
  EXPECT_GT(libvmaf_values, 0);
}

TEST_P(CiedeOnDevice, SeededPairsEveryDepthAndChromaFormat) {
  // 4:2:2 needs an even width, and a row at most 32 wide where the height is 1
  // (metrics/ciede/reference.h).
  const PictureSize sizes[] = {{1, 1}, {2, 2}, {34, 17}, {66, 33}, {130, 21}, {192, 108}};
  const ChromaFormat chromas[] = {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444};
  std::mt19937_64 rng(0xc1ede);
  int compared = 0, formats = 0;
  for (const PictureSize s : sizes)
    for (const ChromaFormat chroma : chromas)
      for (const int bits : {8, 10, 12, 16}) {
        if (chroma == ChromaFormat::k422 && s.w % 2 != 0) continue;
        const VideoFormat f{s.w, s.h, chroma, bits};
        const PictureFrames pictures = seeded_frames(f, 3, rng);
        compared += compare(f, pictures.pairs, "seeded").compared;
        ++formats;
      }
  std::printf("%s ciede seeded pairs: %d formats, %d values bit for bit\n", tag().c_str(), formats,
              compared);
  EXPECT_GT(compared, 0);
}

EXACTVQ_ON_EVERY_DEVICE_BACKEND(CiedeOnDevice);

}  // namespace
}  // namespace exactvq::device_testing
