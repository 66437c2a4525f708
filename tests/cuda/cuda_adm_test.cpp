// adm on the CUDA device against the CPU, bit for bit, with the decoupling's
// binary64 steps native and emulated (fp64=native, fp64=emulate; the CPU
// scores once): every public VMAF vector pair under each option set the models
// use (and the options that change the engine's work), and seeded pictures of
// many sizes, depths and contents; sizes under 33x33 are refused on both.
// Without a GPU every case skips with a message.
#include <cstdio>

#include <fmt/format.h>

#include "cuda_fixture.h"
#include "libvmaf_vmaf_vectors.h"
#include "vif/vif_clips.h"

namespace exactvq::cudatest {
namespace {

namespace fs = std::filesystem;

const char* const kAdmSpecs[] = {"adm", "adm=debug=true", "adm=adm_enhn_gain_limit=1.0:debug=true",
                                 "adm=adm_skip_scale0=true:debug=true", "adm=adm_skip_aim=true:debug=true",
                                 "adm=adm_norm_view_dist=4.5:adm_csf_scale=1.5:debug=true"};

TEST_F(CudaTest, AdmPublicVectorsEqualCpu) {
  if (!fs::exists(testing_vectors::kVmafVectors))
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  int compared = 0, pairs_scored = 0;
  for (const auto& pair : testing_vectors::load_vmaf_pairs()) {
    const std::vector<Picture> refs = vif_testing::read_pictures(pair.ref, pair.raw);
    const std::vector<Picture> dists = vif_testing::read_pictures(pair.dist, pair.raw);
    const VideoFormat f = refs.at(0).format;
    if (f.height < 33 || f.width < 33) continue;  // adm refuses these (tests/adm)
    std::vector<FramePair> frames;
    for (size_t i = 0; i < refs.size(); ++i) frames.push_back({&refs[i], &dists[i], int64_t(i)});
    for (const char* spec : kAdmSpecs) compared += compare_cpu_gpu_fp64_modes(f, spec, frames, pair.name);
    ++pairs_scored;
  }
  std::printf("[ cuda     ] adm public vectors: %d pairs, %d values equal to the CPU's\n", pairs_scored,
              compared);
  EXPECT_GT(pairs_scored, 0);
}

TEST_F(CudaTest, AdmSeededPicturesEqualCpu) {
  struct Size {
    int w, h;
  };
  const Size sizes[] = {{33, 33},   {34, 33},   {33, 47},    {35, 37},    {40, 41},     {64, 64},
                        {65, 33},   {127, 65},  {161, 90},   {250, 130},  {333, 77},   {720, 480},
                        {1279, 719}, {1920, 1080}, {3840, 2160}, {4096, 2160}};
  std::mt19937_64 rng(0xad'cafe);
  int compared = 0;
  for (const Size s : sizes)
    for (const int bitdepth : {8, 10, 12, 16}) {
      const VideoFormat f{s.w, s.h, ChromaFormat::kMono, bitdepth};
      const int frames = s.w * s.h > 1'000'000 ? 2 : 5;
      std::vector<Picture> refs(size_t(frames) * 3), dists(refs.size());
      std::vector<FramePair> pairs;
      for (size_t i = 0; i < refs.size(); ++i) {
        fill_pair(refs[i], dists[i], f, Content(i % 3), rng);
        pairs.push_back({&refs[i], &dists[i], int64_t(i)});
      }
      const bool large = s.w * s.h > 1'000'000;
      for (const char* spec : kAdmSpecs) {
        compared += compare_cpu_gpu_fp64_modes(f, spec, pairs, fmt::format("seeded {}x{}", s.w, s.h));
        if (large) break;  // the other option sets at the smaller sizes
      }
    }
  std::printf("[ cuda     ] adm seeded pictures: %d values equal to the CPU's\n", compared);
}

// The flattened reference (every denominator 0 with adm_noise_weight=0) and
// identical pictures: the host half's special values from the GPU's sums.
TEST_F(CudaTest, AdmDegenerateFramesEqualCpu) {
  std::mt19937_64 rng(0xad'0001);
  for (const int bitdepth : {8, 10}) {
    const VideoFormat f{96, 54, ChromaFormat::kMono, bitdepth};
    std::vector<Picture> refs(4), dists(4);
    std::vector<FramePair> pairs;
    for (size_t i = 0; i < refs.size(); ++i) {
      fill_pair(refs[i], dists[i], f, Content::kRandom, rng);
      if (i == 0) std::fill(refs[i].plane_data(0), refs[i].plane_data(0) + refs[i].plane(0).height *
                                                                              refs[i].plane(0).stride, 0);
      if (i == 1) std::memcpy(dists[i].plane_data(0), refs[i].plane_data(0),
                              size_t(refs[i].plane(0).height) * refs[i].plane(0).stride);
      pairs.push_back({&refs[i], &dists[i], int64_t(i)});
    }
    compare_cpu_gpu_fp64_modes(f, "adm=adm_noise_weight=0:debug=true", pairs, "degenerate");
    compare_cpu_gpu_fp64_modes(f, "adm=debug=true", pairs, "degenerate");
  }
}

TEST_F(CudaTest, AdmSmallPicturesAreRefusedOnBoth) {
  for (const auto& [w, h] : {std::pair{1, 1}, {2, 2}, {16, 16}, {17, 40}, {32, 32}, {32, 100}, {100, 32}}) {
    const VideoFormat f{w, h, ChromaFormat::kMono, 8};
    ThreadPool pool(2);
    const FeatureSpec spec = parse_feature_spec("adm");
    EXPECT_THROW(make_feature(spec, FeatureContext{f, &pool, nullptr}), InputError) << w << "x" << h;
    EXPECT_THROW(make_feature(spec, FeatureContext{f, &pool, gpu()}), InputError) << w << "x" << h;
  }
}

}  // namespace
}  // namespace exactvq::cudatest
