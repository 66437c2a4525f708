// motion on the CUDA device against the CPU, bit for bit: every public VMAF
// vector pair and seeded sequences of many sizes and depths, the frames handed
// over in batches of several sizes (the pictures compared with cross batch and
// chunk boundaries), and runs that start inside a video (start_at, as MPI
// ranks do). Without a GPU every case skips with a message.
#include <cstdio>

#include <fmt/format.h>

#include "cuda_fixture.h"
#include "libvmaf_vmaf_vectors.h"
#include "motion_on_device.h"
#include "vif/vif_clips.h"

namespace exactvq::cudatest {
namespace {

namespace fs = std::filesystem;

const char* const kMotionSpecs[] = {"motion", "motion=debug=true", "motion=motion_five_frame_window=true"};

int compare_motion(const VideoFormat& f, const std::string& spec, const std::vector<Picture>& refs,
                   const std::vector<Picture>& dists, size_t first, size_t batch, const std::string& what) {
  return testing_devices::compare_motion(gpu(), f, spec, refs, dists, first, batch, what);
}

TEST_F(CudaTest, MotionPublicVectorsEqualCpu) {
  if (!fs::exists(testing_vectors::kVmafVectors))
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  int compared = 0, pairs_scored = 0;
  for (const auto& pair : testing_vectors::load_vmaf_pairs()) {
    const std::vector<Picture> refs = vif_testing::read_pictures(pair.ref, pair.raw);
    const std::vector<Picture> dists = vif_testing::read_pictures(pair.dist, pair.raw);
    const VideoFormat f = refs.at(0).format;
    for (const char* spec : kMotionSpecs)
      for (const size_t batch : {size_t{1}, size_t{2}, refs.size()})
        compared += compare_motion(f, spec, refs, dists, 0, batch, pair.name);
    ++pairs_scored;
  }
  std::printf("[ cuda     ] motion public vectors: %d pairs, %d values equal to the CPU's\n", pairs_scored,
              compared);
  EXPECT_GT(pairs_scored, 0);
}

TEST_F(CudaTest, MotionSeededSequencesEqualCpu) {
  struct Size {
    int w, h;
  };
  const Size sizes[] = {{1, 1}, {2, 2}, {3, 5}, {16, 16}, {33, 18}, {127, 65}, {1920, 1080}};
  std::mt19937_64 rng(0x30'7109);
  int compared = 0;
  for (const Size s : sizes)
    for (const int bitdepth : {8, 10, 16}) {
      const VideoFormat f{s.w, s.h, ChromaFormat::kMono, bitdepth};
      const size_t frames = s.w * s.h > 1'000'000 ? 6 : 11;
      std::vector<Picture> refs(frames), dists(frames);
      for (size_t i = 0; i < frames; ++i) fill_pair(refs[i], dists[i], f, Content(i % 3), rng);
      const std::string what = fmt::format("seeded {}x{}", s.w, s.h);
      for (const char* spec : kMotionSpecs)
        for (const size_t batch : {size_t{1}, size_t{3}, size_t{4}, frames}) {
          compared += compare_motion(f, spec, refs, dists, 0, batch, what);
          compared += compare_motion(f, spec, refs, dists, 3, batch, what + " from frame 3");
        }
    }
  std::printf("[ cuda     ] motion seeded sequences: %d values equal to the CPU's\n", compared);
}

}  // namespace
}  // namespace exactvq::cudatest
