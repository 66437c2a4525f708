// adm on every device backend against the CPU, bit for bit: every public VMAF
// vector pair under each option set the models use (and the options that
// change the engine's work, and each kind of CSF factor), seeded pictures from the smallest ADM
// takes (33x33) up, odd sizes, 8..16 bits, random, noisy and extreme content, and degenerate
// frames; sizes below 33x33 are refused on both. CUDA scores the decoupling's binary64 steps native
// and emulated (fp64=native, fp64=emulate; the CPU scores once) up to 4K; OpenCL (softfp) the sizes
// PoCL affords. Without a device a backend's cases skip with a message.
#include <cstdio>
#include <filesystem>
#include <tuple>

#include <fmt/format.h>

#include "device_fixture.h"

namespace exactvq::device_testing {
namespace {

namespace fs = std::filesystem;

const char* const kAdmSpecs[] = {"adm", "adm=debug=true", "adm=adm_enhn_gain_limit=1.0:debug=true",
                                 "adm=adm_skip_scale0=true:debug=true",
                                 "adm=adm_skip_aim=true:debug=true",
                                 "adm=adm_norm_view_dist=4.5:adm_csf_scale=1.5:debug=true",
                                 // Barten's CSF: factors beyond 1, their fixed-point forms wrap.
                                 "adm=adm_csf_mode=1:adm_csf_scale=3:debug=true",
                                 // VMAF v1.0.16_5d0h's adm3 (the blended CSF).
                                 "adm=adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:"
                                 "adm_noise_weight=0.02:adm_min_val=0.5:adm_norm_view_dist=5:"
                                 "debug=true"};

class AdmOnDevice : public DeviceTest {
 protected:
  // The option sets this backend scores: OpenCL leaves the default out, as
  // debug=true prints every value the default prints and the sums' quotients
  // besides.
  std::vector<const char*> specs() const {
    return {std::begin(kAdmSpecs) + (backend() == Backend::kOpenCL ? 1 : 0), std::end(kAdmSpecs)};
  }

  // `spec` on the CPU and the device; computed on the device, where it counts
  // its uploads.
  int compare_adm(const VideoFormat& f, const std::string& spec,
                  const std::vector<FramePair>& pairs, const std::string& what) const {
    const DeviceComparison r = compare(f, spec, pairs, what);
    if (r.uploaded) {
      EXPECT_TRUE(*r.uploaded) << what << " " << spec;
    }
    return r.compared;
  }
};

TEST_P(AdmOnDevice, PublicVectorsEqualCpu) {
  if (!fs::exists(testing_vectors::kVmafVectors))
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  int compared = 0, pairs_scored = 0;
  for_each_vmaf_pair([&](const testing_vectors::VmafPair& pair, const PictureFrames& frames) {
    const VideoFormat f = frames.format();
    if (f.height < 33 || f.width < 33) return;  // adm refuses these (below)
    for (const char* spec : specs()) compared += compare_adm(f, spec, frames.pairs, pair.name);
    ++pairs_scored;
  });
  std::printf("%s adm public vectors: %d pairs, %d values equal to the CPU's\n", tag().c_str(),
              pairs_scored, compared);
  EXPECT_GT(pairs_scored, 0);
}

// What each backend scores of the seeded pictures.
struct SeededPlan {
  std::vector<PictureSize>
      sizes;  // 33 is the smallest side ADM takes (its scale 3 is 3 samples wide)
  uint64_t seed;
  long large_area;  // pictures of more samples are large
  size_t pictures, large_pictures;
  long every_spec_area;  // pictures of more samples: the first option set alone
  std::vector<std::tuple<int, int, int>>
      default_only;  // w, h, depth: 2 pictures, the first option set
};

SeededPlan seeded_plan(Backend b) {
  if (b == Backend::kCuda)
    return {{{33, 33},
             {34, 33},
             {33, 47},
             {35, 37},
             {40, 41},
             {64, 64},
             {65, 33},
             {127, 65},
             {161, 90},
             {250, 130},
             {333, 77},
             {720, 480},
             {1279, 719},
             {1920, 1080},
             {3840, 2160},
             {4096, 2160}},
            0xad'cafe,
            1'000'000,
            15,
            6,
            1'000'000,
            {}};
  return {
      {{33, 33}, {34, 33}, {33, 47}, {35, 37}, {40, 41}, {64, 64}, {65, 33}, {127, 65}, {250, 130}},
      0xad'0c1,
      1'000'000,
      3,
      3,
      5000,
      // Odd sides at two depths, and 1080p.
      {{641, 361, 8}, {641, 361, 16}, {1920, 1080, 10}, {1920, 1080, 16}}};
}

TEST_P(AdmOnDevice, SeededPicturesEqualCpu) {
  const SeededPlan plan = seeded_plan(backend());
  const std::vector<const char*> option_sets = specs();
  std::mt19937_64 rng(plan.seed);
  int compared = 0;
  // Odd sides change every scale's mirrored edges and regions.
  for (const PictureSize s : plan.sizes)
    for (const int bitdepth : {8, 10, 12, 16}) {
      const VideoFormat f{s.w, s.h, ChromaFormat::kMono, bitdepth};
      const long area = long(s.w) * s.h;
      const PictureFrames frames =
          seeded_frames(f, area > plan.large_area ? plan.large_pictures : plan.pictures, rng);
      // Every option set at the smaller sizes; the first one above.
      for (const char* spec : option_sets) {
        compared += compare_adm(f, spec, frames.pairs, fmt::format("seeded {}x{}", s.w, s.h));
        if (area > plan.every_spec_area) break;
      }
    }
  for (const auto& [w, h, bitdepth] : plan.default_only) {
    const VideoFormat f{w, h, ChromaFormat::kMono, bitdepth};
    compared += compare_adm(f, option_sets[0], seeded_frames(f, 2, rng).pairs,
                            fmt::format("seeded {}x{}", w, h));
  }
  std::printf("%s adm seeded pictures: %d values equal to the CPU's\n", tag().c_str(), compared);
}

// The flattened reference (every denominator 0 with adm_noise_weight=0) and
// identical pictures: the host half's special values from the device's sums.
TEST_P(AdmOnDevice, DegenerateFramesEqualCpu) {
  const bool cuda = backend() == Backend::kCuda;
  std::mt19937_64 rng(cuda ? 0xad'0001 : 0xad'0002);
  int compared = 0;
  for (const int bitdepth : {8, 10}) {
    const VideoFormat f{96, 54, ChromaFormat::kMono, bitdepth};
    std::vector<Picture> refs(cuda ? 4 : 3), dists(refs.size());
    std::vector<FramePair> pairs;
    for (size_t i = 0; i < refs.size(); ++i) {
      fill_pair(refs[i], dists[i], f, Content::kRandom, rng);
      const size_t bytes = size_t(refs[i].plane(0).height) * refs[i].plane(0).stride;
      if (i == 0) std::fill(refs[i].plane_data(0), refs[i].plane_data(0) + bytes, 0);
      if (i == 1) std::memcpy(dists[i].plane_data(0), refs[i].plane_data(0), bytes);
      pairs.push_back({&refs[i], &dists[i], int64_t(i)});
    }
    compared += compare_adm(f, "adm=adm_noise_weight=0:debug=true", pairs, "degenerate");
    compared += compare_adm(f, "adm=debug=true", pairs, "degenerate");
  }
  std::printf("%s adm degenerate frames: %d values equal to the CPU's\n", tag().c_str(), compared);
}

TEST_P(AdmOnDevice, SmallPicturesAreRefusedOnBoth) {
  for (const auto& [w, h] :
       {std::pair{1, 1}, {2, 2}, {16, 16}, {17, 40}, {32, 32}, {32, 100}, {100, 32}}) {
    const VideoFormat f{w, h, ChromaFormat::kMono, 8};
    ThreadPool pool(2);
    const FeatureSpec spec = parse_feature_spec("adm");
    EXPECT_THROW(make_feature(spec, FeatureContext{f, &pool, nullptr}), InputError)
        << w << "x" << h;
    EXPECT_THROW(make_feature(spec, FeatureContext{f, &pool, device()}), InputError)
        << w << "x" << h;
  }
}

EXACTVQ_ON_EVERY_DEVICE_BACKEND(AdmOnDevice);

}  // namespace
}  // namespace exactvq::device_testing
