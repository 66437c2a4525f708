// vif on every device backend against the CPU, bit for bit: every public VMAF
// vector pair under each option set the models use, and seeded pictures of
// many sizes, depths and contents (the sizes under 16x16 take the engine's host
// path). CUDA scores the gain steps native and emulated (fp64=native,
// fp64=emulate; the CPU scores once) up to 4K; OpenCL (softfp) the sizes PoCL
// affords. Without a device a backend's cases skip with a message.
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "device_fixture.h"

namespace exactvq::device_testing {
namespace {

namespace fs = std::filesystem;

const char* const kVifSpecs[] = {"vif", "vif=debug=true", "vif=vif_enhn_gain_limit=1.0:debug=true",
                                 "vif=vif_skip_scale0=true:debug=true"};

class VifOnDevice : public DeviceTest {
 protected:
  // `spec` on the CPU and the device; where the device counts its uploads,
  // from 16x16 it computed the values (smaller pictures stay on the host).
  int compare_vif(const VideoFormat& f, const std::string& spec,
                  const std::vector<FramePair>& pairs, const std::string& what) const {
    const DeviceComparison r = compare(f, spec, pairs, what);
    if (r.uploaded) {
      EXPECT_EQ(*r.uploaded, f.width >= 16 && f.height >= 16) << what << " " << spec;
    }
    return r.compared;
  }
};

TEST_P(VifOnDevice, PublicVectorsEqualCpu) {
  if (!fs::exists(testing_vectors::kVmafVectors))
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  int compared = 0, pairs_scored = 0;
  for_each_vmaf_pair([&](const testing_vectors::VmafPair& pair, const PictureFrames& frames) {
    const VideoFormat f = frames.format();
    if (f.height < 8 || f.width < 4) return;  // vif refuses these (tests/metrics/vif)
    for (const char* spec : kVifSpecs) compared += compare_vif(f, spec, frames.pairs, pair.name);
    ++pairs_scored;
  });
  std::printf("%s vif public vectors: %d pairs, %d values equal to the CPU's\n", tag().c_str(),
              pairs_scored, compared);
  EXPECT_GT(pairs_scored, 0);
}

// What each backend scores of the seeded pictures.
struct SeededPlan {
  std::vector<PictureSize> sizes;
  uint64_t seed;
  long large_area;  // pictures of more samples are large
  size_t pictures, large_pictures;
  bool large_without_default;  // large: debug=true alone (it has the default's values too)
};

SeededPlan seeded_plan(Backend b) {
  if (b == Backend::kCuda)
    return {{{16, 16},
             {17, 19},
             {33, 18},
             {64, 64},
             {127, 65},
             {2, 8},
             {15, 40},
             {40, 15},
             {250, 130},
             {1920, 1080},
             {3840, 2160}},
            0x51f'cafe,
            1'000'000,
            15,
            6,
            false};
  return {{{16, 16},
           {17, 19},
           {33, 18},
           {64, 64},
           {127, 65},
           {2, 8},
           {15, 40},
           {40, 15},
           {250, 130},
           {640, 360}},
          0x51f'0c1,
          100'000,
          6,
          3,
          true};
}

TEST_P(VifOnDevice, SeededPicturesEqualCpu) {
  const SeededPlan plan = seeded_plan(backend());
  std::mt19937_64 rng(plan.seed);
  int compared = 0;
  for (const PictureSize s : plan.sizes)
    for (const int bitdepth : {8, 10, 12, 16}) {
      const VideoFormat f{s.w, s.h, ChromaFormat::kMono, bitdepth};
      const bool large = long(s.w) * s.h > plan.large_area;
      const PictureFrames frames =
          seeded_frames(f, large ? plan.large_pictures : plan.pictures, rng);
      for (const char* spec : kVifSpecs) {
        if (s.w < 4 && std::string(spec).find("skip") != std::string::npos) continue;
        if (large && plan.large_without_default && std::string(spec) == "vif") continue;
        compared += compare_vif(f, spec, frames.pairs, fmt::format("seeded {}x{}", s.w, s.h));
      }
    }
  std::printf("%s vif seeded pictures: %d values equal to the CPU's\n", tag().c_str(), compared);
}

EXACTVQ_ON_EVERY_DEVICE_BACKEND(VifOnDevice);

}  // namespace
}  // namespace exactvq::device_testing
