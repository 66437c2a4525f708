// FeatureSet's pipeline on the CPU (app/feature_set.h): batches submitted ahead
// of their collection, the features side by side on a pool, give every column
// the bits one thread scoring batch by batch gives, temporal features (motion)
// and --subsample included; and a set destroyed or cleared with batches in flight
// waits for them. (A task's error reaching its caller: tests/core/thread_pool_test.cpp.)
#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <random>
#include <algorithm>
#include <vector>

#include "app/feature_set.h"
#include "core/thread_pool.h"

namespace exactvq {
namespace {

VideoFormat small_format() {
  VideoFormat f;
  f.width = 72;
  f.height = 40;
  f.chroma = ChromaFormat::k420;
  f.bitdepth = 8;
  return f;
}

// Seeded noise, the distorted picture a perturbed copy of the reference.
std::vector<Picture> pictures(const VideoFormat& f, int frames, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Picture> all(size_t(2 * frames));
  for (int i = 0; i < frames; ++i) {
    Picture& ref = all[size_t(2 * i)];
    Picture& dist = all[size_t(2 * i + 1)];
    ref.allocate(f);
    dist.allocate(f);
    for (int p = 0; p < f.plane_count(); ++p) {
      const size_t n = f.plane_bytes(p);
      for (size_t k = 0; k < n; ++k) {
        const int v = int(rng() % 256);
        ref.plane_data(p)[k] = uint8_t(v);
        dist.plane_data(p)[k] = uint8_t(std::clamp(v + int(rng() % 9) - 4, 0, 255));
      }
    }
  }
  return all;
}

std::vector<FeatureSpec> specs() {
  return {{"motion", {}}, {"vif", {}}, {"adm", {}}, {"psnr", {}}};
}

// Every column, scored in batches of `batch` frames: with `ahead`, each batch is
// collected after the next one is submitted.
std::vector<std::vector<double>> run(ThreadPool* pool, const std::vector<Picture>& pics, int frames,
                                     int batch, bool ahead, int keep_every) {
  const FeatureContext ctx{small_format(), pool, nullptr};
  FeatureSet set(specs(), ctx);
  if (keep_every > 1) set.keep_every(keep_every);
  EXPECT_EQ(set.pipelined(), pool && pool->size() > 1);
  std::vector<std::vector<double>> columns;
  std::deque<std::vector<FramePair>> in_flight;
  for (int first = 0; first < frames; first += batch) {
    std::vector<FramePair> pairs;
    for (int i = first; i < std::min(frames, first + batch); ++i)
      pairs.push_back({&pics[size_t(2 * i)], &pics[size_t(2 * i + 1)], i});
    in_flight.push_back(std::move(pairs));
    set.submit(in_flight.back());
    if (!ahead || in_flight.size() == 2) {
      set.collect(columns);
      in_flight.pop_front();
    }
  }
  while (!in_flight.empty()) {
    set.collect(columns);
    in_flight.pop_front();
  }
  set.finish(columns);
  return columns;
}

bool same_bits(const std::vector<std::vector<double>>& a,
               const std::vector<std::vector<double>>& b) {
  if (a.size() != b.size()) return false;
  for (size_t c = 0; c < a.size(); ++c) {
    if (a[c].size() != b[c].size()) return false;
    if (!a[c].empty() && std::memcmp(a[c].data(), b[c].data(), a[c].size() * sizeof(double)))
      return false;
  }
  return true;
}

TEST(FeatureSetPipeline, EqualsOneThreadBatchByBatch) {
  constexpr int kFrames = 11;
  const auto pics = pictures(small_format(), kFrames, 20261206);
  for (int keep_every : {1, 3}) {
    const auto want = run(nullptr, pics, kFrames, 1, false, keep_every);
    ASSERT_FALSE(want.empty());
    ASSERT_EQ(want[0].size(), size_t((kFrames + keep_every - 1) / keep_every));
    for (int threads : {2, 3, 5}) {
      ThreadPool pool(threads);
      for (int batch : {1, 2, 4, 7})
        for (bool ahead : {false, true})
          EXPECT_TRUE(same_bits(run(&pool, pics, kFrames, batch, ahead, keep_every), want))
              << threads << " threads, batches of " << batch << (ahead ? ", pipelined" : "")
              << ", every " << keep_every;
    }
  }
}

TEST(FeatureSetPipeline, ASetDestroyedWithBatchesInFlightWaitsForThem) {
  const auto pics = pictures(small_format(), 6, 11);
  ThreadPool pool(4);
  for (int round = 0; round < 10; ++round) {
    const FeatureContext ctx{small_format(), &pool, nullptr};
    FeatureSet set(specs(), ctx);
    std::vector<FramePair> first, second;
    for (int i = 0; i < 3; ++i)
      first.push_back({&pics[size_t(2 * i)], &pics[size_t(2 * i + 1)], i});
    for (int i = 3; i < 6; ++i)
      second.push_back({&pics[size_t(2 * i)], &pics[size_t(2 * i + 1)], i});
    set.submit(first);
    set.submit(second);
  }  // the batches' tasks end before `set` goes
}

// As when a run unwinds from an error (a feature refusing the pictures while it
// scores): clear() waits for the tasks in flight, which it may run itself.
TEST(FeatureSetPipeline, ASetClearedWithBatchesInFlightWaitsForThem) {
  constexpr int kFrames = 8;
  const auto pics = pictures(small_format(), kFrames, 12);
  ThreadPool pool(2);
  for (int round = 0; round < 20; ++round) {
    const FeatureContext ctx{small_format(), &pool, nullptr};
    FeatureSet set(specs(), ctx);
    std::deque<std::vector<FramePair>> batches;
    for (int i = 0; i < kFrames; ++i) {
      batches.push_back({{&pics[size_t(2 * i)], &pics[size_t(2 * i + 1)], i}});
      set.submit(batches.back());
    }
    set.clear();
  }
}

}  // namespace
}  // namespace exactvq
