// vif on the OpenCL device (the gain steps in softfp) against the CPU, bit for
// bit: every public VMAF vector pair under each option set the models use, and
// seeded pictures of many sizes, depths and contents (the sizes under 16x16
// take the engine's host path). Without an OpenCL device every case skips.
#include <cstdio>

#include "libvmaf_vmaf_vectors.h"
#include "opencl_fixture.h"
#include "vif/vif_clips.h"

namespace exactvq::opencltest {
namespace {

const char* const kVifSpecs[] = {"vif", "vif=debug=true", "vif=vif_enhn_gain_limit=1.0:debug=true",
                                 "vif=vif_skip_scale0=true:debug=true"};

// Scores `pairs` with `spec` on the CPU and the device (one batch), expecting
// every value and aggregate equal; returns how many were compared.
int compare_vif(const VideoFormat& f, const std::string& spec, const std::vector<FramePair>& pairs,
                const std::string& what) {
  const BatchComparison r = compare_batch(f, spec, pairs, what);
  // From 16x16 the device computed them (smaller pictures stay on the host).
  EXPECT_EQ(r.uploaded, f.width >= 16 && f.height >= 16) << what << " " << spec;
  return r.compared;
}

TEST_F(OpenclTest, VifPublicVectorsEqualCpu) {
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
    for (const char* spec : kVifSpecs) compared += compare_vif(f, spec, frames, pair.name);
    ++pairs_scored;
  }
  std::printf("[ opencl   ] vif public vectors: %d pairs, %d values equal to the CPU's\n", pairs_scored, compared);
  EXPECT_GT(pairs_scored, 0);
}

TEST_F(OpenclTest, VifSeededPicturesEqualCpu) {
  struct Size {
    int w, h;
  };
  const Size sizes[] = {{16, 16}, {17, 19}, {33, 18}, {64, 64},   {127, 65},
                        {2, 8},   {15, 40}, {40, 15}, {250, 130}, {640, 360}};
  std::mt19937_64 rng(0x51f'0c1);
  int compared = 0;
  for (const Size s : sizes)
    for (const int bitdepth : {8, 10, 12, 16}) {
      const VideoFormat f{s.w, s.h, ChromaFormat::kMono, bitdepth};
      const bool large = s.w * s.h > 100'000;
      std::vector<Picture> refs(large ? 3 : 6), dists(refs.size());
      std::vector<FramePair> pairs;
      for (size_t i = 0; i < refs.size(); ++i) {
        fill_pair(refs[i], dists[i], f, Content(i % 3), rng);
        pairs.push_back({&refs[i], &dists[i], int64_t(i)});
      }
      for (const char* spec : kVifSpecs) {
        if (s.w < 4 && std::string(spec).find("skip") != std::string::npos) continue;
        if (large && std::string(spec) == "vif") continue;  // debug=true has its values too
        compared += compare_vif(f, spec, pairs, fmt::format("seeded {}x{}", s.w, s.h));
      }
    }
  std::printf("[ opencl   ] vif seeded pictures: %d values equal to the CPU's\n", compared);
}

}  // namespace
}  // namespace exactvq::opencltest
