// vif on the CUDA device against the CPU, bit for bit, with the gain steps
// native and emulated (fp64=native, fp64=emulate; the CPU scores once): every
// public VMAF vector pair under each option set the models use, and seeded
// pictures of many sizes, depths and contents (the sizes under 16x16 take the
// engine's host path). Without a GPU every case skips with a message.
#include <cstdio>

#include <fmt/format.h>

#include "cuda_fixture.h"
#include "libvmaf_vmaf_vectors.h"
#include "vif/vif_clips.h"

namespace exactvq::cudatest {
namespace {

namespace fs = std::filesystem;

const char* const kVifSpecs[] = {"vif", "vif=debug=true", "vif=vif_enhn_gain_limit=1.0:debug=true",
                                 "vif=vif_skip_scale0=true:debug=true"};

TEST_F(CudaTest, VifPublicVectorsEqualCpu) {
  if (!fs::exists(testing_vectors::kVmafVectors))
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  int compared = 0, pairs_scored = 0;
  for (const auto& pair : testing_vectors::load_vmaf_pairs()) {
    const std::vector<Picture> refs = vif_testing::read_pictures(pair.ref, pair.raw);
    const std::vector<Picture> dists = vif_testing::read_pictures(pair.dist, pair.raw);
    const VideoFormat f = refs.at(0).format;
    if (f.height < 8 || f.width < 4) continue;  // vif refuses these (tests/vif)
    std::vector<FramePair> frames;
    for (size_t i = 0; i < refs.size(); ++i) frames.push_back({&refs[i], &dists[i], int64_t(i)});
    for (const char* spec : kVifSpecs) compared += compare_cpu_gpu_fp64_modes(f, spec, frames, pair.name);
    ++pairs_scored;
  }
  std::printf("[ cuda     ] vif public vectors: %d pairs, %d values equal to the CPU's\n", pairs_scored,
              compared);
  EXPECT_GT(pairs_scored, 0);
}

TEST_F(CudaTest, VifSeededPicturesEqualCpu) {
  struct Size {
    int w, h;
  };
  const Size sizes[] = {{16, 16}, {17, 19},  {33, 18},   {64, 64},    {127, 65},  {2, 8},
                        {15, 40}, {40, 15},  {250, 130}, {1920, 1080}, {3840, 2160}};
  std::mt19937_64 rng(0x51f'cafe);
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
      for (const char* spec : kVifSpecs) {
        if (s.w < 4 && std::string(spec).find("skip") != std::string::npos) continue;
        compared += compare_cpu_gpu_fp64_modes(f, spec, pairs, fmt::format("seeded {}x{}", s.w, s.h));
      }
    }
  std::printf("[ cuda     ] vif seeded pictures: %d values equal to the CPU's\n", compared);
}

}  // namespace
}  // namespace exactvq::cudatest
