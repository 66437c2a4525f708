// libvmaf.so.3's FrameQueue over an ApiContext, on its own (its symbols are not
// exported): a batch that fails while the batches before it are in flight
// keeps their scores, adds none of its own or of the batches after it, and
// fails every call after; a queue stopped with batches in flight waits for them.
// Either way every pair lent to it is given back exactly once.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "capi/api_context.h"
#include "libvmaf_api/frame_queue.h"

namespace exactvq::libvmaf_api {
namespace {

constexpr int kWidth = 176, kHeight = 144;

// Frames of seeded noise, each picture's planes in a buffer of its own.
struct Frames {
  std::vector<std::vector<uint8_t>> planes;  // [frame][side][plane]
  std::vector<exactvq_picture> refs, dists;

  explicit Frames(int count) {
    std::mt19937 rng(11);
    planes.resize(size_t(count) * 6);
    for (int i = 0; i < count; ++i)
      for (int side = 0; side < 2; ++side) {
        exactvq_picture pic{};
        pic.width = kWidth;
        pic.height = kHeight;
        pic.chroma = EXACTVQ_CHROMA_420;
        pic.bitdepth = 8;
        for (int p = 0; p < 3; ++p) {
          const int w = p ? kWidth / 2 : kWidth, h = p ? kHeight / 2 : kHeight;
          auto& bytes = planes[size_t(i) * 6 + size_t(side) * 3 + size_t(p)];
          bytes.resize(size_t(w) * size_t(h));
          for (auto& b : bytes) b = uint8_t(rng() % 256);
          pic.data[p] = bytes.data();
          pic.stride[p] = w;
        }
        (side ? dists : refs).push_back(pic);
      }
  }
};

exactvq_options options(int threads) {
  static const char* const kFeatures[] = {"motion", "vif", "adm", "psnr"};
  exactvq_options o;
  exactvq_default_options(&o);
  o.features = kFeatures;
  o.feature_count = std::size(kFeatures);
  o.threads = threads;
  return o;
}

// Both ways a queue's thread meets the run's threads: one of them
// (caller_scores), or feeding them only (libvmaf's CPU runs).
class LibvmafApiFrameQueue : public testing::TestWithParam<bool> {};

TEST_P(LibvmafApiFrameQueue, AFailedMiddleBatchKeepsTheBatchesBeforeIt) {
  constexpr int kFrames = 24, kFailing = 10;
  const Frames frames(kFrames);
  capi::ApiContext run(options(3), GetParam());
  std::vector<int> released(kFrames, 0);
  std::vector<bool> taken(kFrames, false);
  {
    FrameQueue queue(run, true);
    queue.add(frames.refs[0], frames.dists[0], 0);
    taken[0] = true;
    bool refused = false;
    for (int i = 1; i < kFrames; ++i) {
      try {
        queue.lend(frames.refs[size_t(i)], frames.dists[size_t(i)], size_t(i), [&released, i] {
          ++released[size_t(i)];
          if (i == kFailing) throw std::runtime_error("frame 10's release failed");
        });
        taken[size_t(i)] = true;
      } catch (const std::runtime_error& e) {
        // Once the failure is known, every call gives it and takes nothing.
        EXPECT_STREQ(e.what(), "frame 10's release failed");
        EXPECT_GT(i, kFailing);
        refused = true;
      }
      if (refused) {
        EXPECT_FALSE(taken[size_t(i)]);
      }
    }
    EXPECT_THROW(queue.settle(), std::runtime_error);
    EXPECT_THROW(queue.settle(), std::runtime_error);
    queue.stop();
  }
  for (int i = 1; i < kFrames; ++i)
    EXPECT_EQ(released[size_t(i)], taken[size_t(i)] ? 1 : 0) << "frame " << i;

  // The batches before frame 10's are scored, and as one thread scores them.
  const size_t kept = size_t(kFailing) / run.feed_frames() * run.feed_frames();
  ASSERT_GT(kept, run.feed_frames());
  ASSERT_EQ(run.frame_count(), kept);
  capi::ApiContext alone(options(1));
  alone.score_frames(frames.refs.data(), frames.dists.data(), kept);
  for (const std::string& name : run.score_names()) {
    std::vector<double> got(kept), want(kept);
    try {
      alone.scores(name, want.data(), kept);
    } catch (const std::exception&) {
      continue;  // a score of the whole run (integer_motion2), known at the flush
    }
    run.scores(name, got.data(), kept);
    EXPECT_EQ(std::memcmp(got.data(), want.data(), kept * sizeof(double)), 0) << name;
  }
}

TEST_P(LibvmafApiFrameQueue, StoppedWithBatchesInFlightGivesEveryPairBack) {
  constexpr int kFrames = 17;
  const Frames frames(kFrames);
  for (const int threads : {1, 2, 4}) {
    capi::ApiContext run(options(threads), GetParam());
    std::vector<int> released(kFrames, 0);
    {
      FrameQueue queue(run, true);
      queue.add(frames.refs[0], frames.dists[0], 0);
      for (int i = 1; i < kFrames; ++i)
        queue.lend(frames.refs[size_t(i)], frames.dists[size_t(i)], size_t(i),
                   [&released, i] { ++released[size_t(i)]; });
      queue.stop();
    }
    for (int i = 1; i < kFrames; ++i)
      EXPECT_EQ(released[size_t(i)], 1) << "threads " << threads << ", frame " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, LibvmafApiFrameQueue, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "QueueThreadScores" : "QueueThreadFeeds";
                         });

}  // namespace
}  // namespace exactvq::libvmaf_api
