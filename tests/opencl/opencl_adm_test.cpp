// adm on the OpenCL device (the decoupling's binary64 steps in softfp) against
// the CPU, bit for bit: every public VMAF vector pair under each option set
// the models use (and the options that change the engine's work), seeded
// pictures from the smallest ADM takes (33x33) up, odd sizes, 8..16 bits,
// random, noisy and extreme content, and degenerate frames; sizes below 33x33
// are refused on both. Without an OpenCL device every case skips.
#include <cstdio>
#include <tuple>

#include "libvmaf_vmaf_vectors.h"
#include "opencl_fixture.h"
#include "vif/vif_clips.h"

namespace exactvq::opencltest {
namespace {

// Every option set the feature's tests use on devices: debug=true prints
// every value the default prints and the sums' quotients besides.
const char* const kAdmSpecs[] = {"adm=debug=true", "adm=adm_enhn_gain_limit=1.0:debug=true",
                                 "adm=adm_skip_scale0=true:debug=true", "adm=adm_skip_aim=true:debug=true",
                                 "adm=adm_norm_view_dist=4.5:adm_csf_scale=1.5:debug=true"};

// Scores `pairs` with `spec` on the CPU and the device (one batch), expecting
// every value equal, computed on the device; returns how many were compared.
int compare_adm(const VideoFormat& f, const std::string& spec, const std::vector<FramePair>& pairs,
                const std::string& what) {
  const BatchComparison r = compare_batch(f, spec, pairs, what);
  EXPECT_TRUE(r.uploaded) << what << " " << spec;
  return r.compared;
}

TEST_F(OpenclTest, AdmPublicVectorsEqualCpu) {
  if (!fs::exists(testing_vectors::kVmafVectors))
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  int compared = 0, pairs_scored = 0;
  for (const auto& pair : testing_vectors::load_vmaf_pairs()) {
    const std::vector<Picture> refs = vif_testing::read_pictures(pair.ref, pair.raw);
    const std::vector<Picture> dists = vif_testing::read_pictures(pair.dist, pair.raw);
    const VideoFormat f = refs.at(0).format;
    if (f.height < 33 || f.width < 33) continue;  // adm refuses these (below)
    std::vector<FramePair> frames;
    for (size_t i = 0; i < refs.size(); ++i) frames.push_back({&refs[i], &dists[i], int64_t(i)});
    for (const char* spec : kAdmSpecs) compared += compare_adm(f, spec, frames, pair.name);
    ++pairs_scored;
  }
  std::printf("[ opencl   ] adm public vectors: %d pairs, %d values equal to the CPU's\n", pairs_scored, compared);
  EXPECT_GT(pairs_scored, 0);
}

TEST_F(OpenclTest, AdmSeededPicturesEqualCpu) {
  struct Size {
    int w, h;
  };
  // 33 is the smallest side ADM takes (its scale 3 is 3 samples wide); odd
  // sides change every scale's mirrored edges and regions.
  const Size sizes[] = {{33, 33}, {34, 33}, {33, 47}, {35, 37}, {40, 41}, {64, 64}, {65, 33}, {127, 65}, {250, 130}};
  std::mt19937_64 rng(0xad'0c1);
  int compared = 0;
  for (const Size s : sizes)
    for (const int bitdepth : {8, 10, 12, 16}) {
      const VideoFormat f{s.w, s.h, ChromaFormat::kMono, bitdepth};
      std::vector<Picture> refs(3), dists(refs.size());
      std::vector<FramePair> pairs;
      for (size_t i = 0; i < refs.size(); ++i) {
        fill_pair(refs[i], dists[i], f, Content(i % 3), rng);
        pairs.push_back({&refs[i], &dists[i], int64_t(i)});
      }
      // Every option set at the smaller sizes; the default one above.
      for (const char* spec : kAdmSpecs) {
        compared += compare_adm(f, spec, pairs, fmt::format("seeded {}x{}", s.w, s.h));
        if (s.w * s.h > 5000) break;
      }
    }
  // Larger pictures, default options: odd sides at two depths, and 1080p.
  for (const auto& [w, h, bitdepth] : {std::tuple{641, 361, 8}, {641, 361, 16}, {1920, 1080, 10}, {1920, 1080, 16}}) {
    const VideoFormat f{w, h, ChromaFormat::kMono, bitdepth};
    std::vector<Picture> refs(2), dists(refs.size());
    std::vector<FramePair> pairs;
    for (size_t i = 0; i < refs.size(); ++i) {
      fill_pair(refs[i], dists[i], f, Content(i % 3), rng);
      pairs.push_back({&refs[i], &dists[i], int64_t(i)});
    }
    compared += compare_adm(f, kAdmSpecs[0], pairs, fmt::format("seeded {}x{}", w, h));
  }
  std::printf("[ opencl   ] adm seeded pictures: %d values equal to the CPU's\n", compared);
}

// The flattened reference (every denominator 0 with adm_noise_weight=0) and
// identical pictures: the host half's special values from the device's sums.
TEST_F(OpenclTest, AdmDegenerateFramesEqualCpu) {
  std::mt19937_64 rng(0xad'0002);
  int compared = 0;
  for (const int bitdepth : {8, 10}) {
    const VideoFormat f{96, 54, ChromaFormat::kMono, bitdepth};
    std::vector<Picture> refs(3), dists(3);
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
  std::printf("[ opencl   ] adm degenerate frames: %d values equal to the CPU's\n", compared);
}

TEST_F(OpenclTest, AdmSmallPicturesAreRefusedOnBoth) {
  for (const auto& [w, h] : {std::pair{1, 1}, {16, 16}, {32, 32}, {32, 100}, {100, 32}}) {
    const VideoFormat f{w, h, ChromaFormat::kMono, 8};
    const FeatureSpec spec = parse_feature_spec("adm");
    EXPECT_THROW(make_feature(spec, FeatureContext{f, nullptr, nullptr}), InputError) << w << "x" << h;
    EXPECT_THROW(make_feature(spec, FeatureContext{f, nullptr, device()}), InputError) << w << "x" << h;
  }
}

}  // namespace
}  // namespace exactvq::opencltest
