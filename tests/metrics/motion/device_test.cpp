// motion on every device backend against the CPU, bit for bit: every public
// VMAF vector pair and seeded sequences of many sizes and depths, the frames
// handed over in batches of several sizes (the pictures compared with cross
// batch and chunk boundaries), and runs that start inside a video (start_at,
// as MPI ranks do). CUDA scores up to 1080p; OpenCL the sizes PoCL affords, and
// that every frame's planes reach the device once. Without a device a
// backend's cases skip with a message.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <span>

#include <fmt/format.h>

#include "device_fixture.h"

namespace exactvq::device_testing {
namespace {

namespace fs = std::filesystem;

const char* const kMotionSpecs[] = {"motion", "motion=debug=true",
                                    "motion=motion_five_frame_window=true"};

class MotionOnDevice : public DeviceTest {
 protected:
  // Scores pictures[first..] with `spec` on the CPU and on the device, `batch`
  // frames a call, after start_at with the frames before `first` (as MPI ranks
  // start); returns the values compared.
  int compare_motion(const VideoFormat& f, const std::string& spec,
                     const std::vector<Picture>& refs, const std::vector<Picture>& dists,
                     size_t first, size_t batch, const std::string& what) const {
    const std::optional<int64_t> uploads = plane_uploads(*device());
    ThreadPool pool(2);
    const FeatureSpec parsed = parse_feature_spec(spec);
    auto cpu = make_feature(parsed, FeatureContext{f, &pool, nullptr});
    auto on_device = make_feature(parsed, FeatureContext{f, &pool, device()});
    std::vector<FramePair> pairs;
    for (size_t i = 0; i < refs.size(); ++i) pairs.push_back({&refs[i], &dists[i], int64_t(i)});
    if (first > 0) {
      const size_t before = std::min(first, size_t(cpu->frames_before()));
      const std::span<const FramePair> held(pairs.data() + first - before, before);
      cpu->start_at(held, int64_t(first));
      on_device->start_at(held, int64_t(first));
    }
    const size_t n = cpu->outputs().size();
    int compared = 0;
    for (size_t at = first; at < pairs.size(); at += batch) {
      const std::span<const FramePair> frames(pairs.data() + at,
                                              std::min(batch, pairs.size() - at));
      std::vector<double> want(frames.size() * n), got(frames.size() * n, -12345.0);
      cpu->extract_batch(frames, want);
      on_device->extract_batch(frames, got);
      for (size_t i = 0; i < want.size(); ++i, ++compared)
        EXPECT_TRUE(same_bits(got[i], want[i]))
            << what << " " << f.describe() << " " << spec << " batch " << batch << " from " << first
            << " frame " << at + i / n << " " << cpu->outputs()[i % n] << ": device "
            << fmt::format("{:a}", got[i]) << ", cpu " << fmt::format("{:a}", want[i]);
    }
    if (uploads) {
      EXPECT_EQ(*plane_uploads(*device()) - *uploads, int64_t(2 * (refs.size() - first)))
          << what << ": every frame's planes reach the device once";
    }
    return compared;
  }
};

TEST_P(MotionOnDevice, PublicVectorsEqualCpu) {
  if (!fs::exists(testing_vectors::kVmafVectors))
    GTEST_SKIP() << "no shared vectors at " << testing_vectors::kVmafVectors;
  int compared = 0, pairs_scored = 0;
  for_each_vmaf_pair([&](const testing_vectors::VmafPair& pair, const PictureFrames& frames) {
    for (const char* spec : kMotionSpecs)
      for (const size_t batch : {size_t{1}, size_t{2}, frames.refs.size()})
        compared +=
            compare_motion(frames.format(), spec, frames.refs, frames.dists, 0, batch, pair.name);
    ++pairs_scored;
  });
  std::printf("%s motion public vectors: %d pairs, %d values equal to the CPU's\n", tag().c_str(),
              pairs_scored, compared);
  EXPECT_GT(pairs_scored, 0);
}

// What each backend scores of the seeded sequences.
struct SeededPlan {
  std::vector<PictureSize> sizes;
  std::vector<int> bitdepths;
  uint64_t seed;
  long large_area;  // pictures of more samples are large
  size_t frames, large_frames;
  std::vector<size_t> batches;  // and all the frames at once
};

SeededPlan seeded_plan(Backend b) {
  if (b == Backend::kCuda)
    return {{{1, 1}, {2, 2}, {3, 5}, {16, 16}, {33, 18}, {127, 65}, {1920, 1080}},
            {8, 10, 16},
            0x30'7109,
            1'000'000,
            11,
            6,
            {1, 3, 4}};
  return {{{1, 1}, {2, 2}, {3, 5}, {16, 16}, {33, 18}, {127, 65}, {640, 360}},
          {8, 10, 12, 16},
          0x30'0c1,
          100'000,
          9,
          6,
          {1, 3}};
}

TEST_P(MotionOnDevice, SeededSequencesEqualCpu) {
  const SeededPlan plan = seeded_plan(backend());
  std::mt19937_64 rng(plan.seed);
  int compared = 0;
  for (const PictureSize s : plan.sizes)
    for (const int bitdepth : plan.bitdepths) {
      const VideoFormat f{s.w, s.h, ChromaFormat::kMono, bitdepth};
      const size_t frames = long(s.w) * s.h > plan.large_area ? plan.large_frames : plan.frames;
      const PictureFrames seeded = seeded_frames(f, frames, rng);
      const std::vector<Picture>& refs = seeded.refs;
      const std::vector<Picture>& dists = seeded.dists;
      const std::string what = fmt::format("seeded {}x{}", s.w, s.h);
      std::vector<size_t> batches = plan.batches;
      batches.push_back(frames);
      for (const char* spec : kMotionSpecs)
        for (const size_t batch : batches) {
          compared += compare_motion(f, spec, refs, dists, 0, batch, what);
          compared += compare_motion(f, spec, refs, dists, 3, batch, what + " from frame 3");
        }
    }
  std::printf("%s motion seeded sequences: %d values equal to the CPU's\n", tag().c_str(),
              compared);
}

EXACTVQ_ON_EVERY_DEVICE_BACKEND(MotionOnDevice);

}  // namespace
}  // namespace exactvq::device_testing
