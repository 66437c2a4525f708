// vmaf_read_pictures with n_threads: the run's threads score two batches at
// once (the next batch's frames start while the last of the one before end).
// Whatever the threads, the batch sizes and when scores are read (a read
// settles the batches in flight), every score equals, bit for bit, a run on the
// caller's thread alone (n_threads 0): temporal features (motion and its look
// ahead, speed_temporal) across batch boundaries included. A context closed
// with batches in flight gives every picture back (ASan checks the leaks).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "libvmaf/libvmaf.h"

namespace {

constexpr unsigned kWidth = 256, kHeight = 224;  // cambi needs 216 a side

// The features' per-frame scores read by name, then the model's. The first
// kLate need the frame after theirs, so they are read after the flush (exactvq
// knows them only then).
const char* const kNames[] = {
    "integer_motion2", "integer_adm2", "integer_vif_scale0", "integer_vif_scale3", "psnr_y",
    "speed_temporal",  "cambi"};
constexpr size_t kLate = 1;
constexpr size_t kScores = std::size(kNames) + 1;

// Frame i's pair: seeded noise, the distorted picture a perturbed copy and each
// frame a shifted copy of the one before (so that motion is not constant).
void make_pair(unsigned i, VmafPicture& ref, VmafPicture& dist) {
  ASSERT_EQ(vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, kWidth, kHeight), 0);
  ASSERT_EQ(vmaf_picture_alloc(&dist, VMAF_PIX_FMT_YUV420P, 8, kWidth, kHeight), 0);
  std::mt19937 base(7), noise(1000 + i);
  for (int p = 0; p < 3; ++p) {
    auto* r = static_cast<uint8_t*>(ref.data[p]);
    auto* d = static_cast<uint8_t*>(dist.data[p]);
    std::vector<uint8_t> texture(size_t(ref.w[p] + 64) * ref.h[p]);
    for (auto& t : texture) t = uint8_t(base() % 256);
    for (unsigned y = 0; y < ref.h[p]; ++y)
      for (unsigned x = 0; x < ref.w[p]; ++x) {
        const int v = texture[size_t(y) * (ref.w[p] + 64) + x + (i * 3) % 64];
        r[y * ref.stride[p] + x] = uint8_t(v);
        d[y * dist.stride[p] + x] = uint8_t(std::clamp(v + int(noise() % 21) - 10, 0, 255));
      }
  }
}

struct Context {
  VmafContext* vmaf = nullptr;
  VmafModel* model = nullptr;

  explicit Context(unsigned threads) {
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    cfg.n_threads = threads;
    EXPECT_EQ(vmaf_init(&vmaf, cfg), 0);
    VmafModelConfig mcfg{};
    mcfg.name = "vmaf";
    EXPECT_EQ(vmaf_model_load(&model, &mcfg, "vmaf_v0.6.1"), 0);
    EXPECT_EQ(vmaf_use_features_from_model(vmaf, model), 0);
    for (const char* feature : {"psnr", "speed_temporal", "cambi"})
      EXPECT_EQ(vmaf_use_feature(vmaf, feature, nullptr), 0) << feature;
  }
  ~Context() {
    vmaf_close(vmaf);
    vmaf_model_destroy(model);
  }

  // Frame `index`'s scores, appended to `out`; `early`: those known before the
  // flush (not the first kLate names, nor the model's).
  void read(unsigned index, std::vector<double>& out, bool early = false) {
    for (size_t n = early ? kLate : 0; n < std::size(kNames); ++n) {
      double s = -1;
      EXPECT_EQ(vmaf_feature_score_at_index(vmaf, kNames[n], &s, index), 0)
          << kNames[n] << " " << index;
      out.push_back(s);
    }
    if (early) return;
    double s = -1;
    EXPECT_EQ(vmaf_score_at_index(vmaf, model, &s, index), 0) << "vmaf " << index;
    out.push_back(s);
  }
};

// Every score of `frames` frames with n_threads `threads`; after reading each
// frame in `read_after`, the scores of the frame before it that are known then
// are read (settling the batches in flight), and compared with the same scores
// read after the flush.
std::vector<double> scores(unsigned threads, unsigned frames,
                           const std::set<unsigned>& read_after) {
  Context c(threads);
  std::vector<double> early;
  for (unsigned i = 0; i < frames; ++i) {
    VmafPicture ref, dist;
    make_pair(i, ref, dist);
    EXPECT_EQ(vmaf_read_pictures(c.vmaf, &ref, &dist, i), 0) << i;
    if (read_after.count(i) && i > 0) c.read(i - 1, early, true);
  }
  EXPECT_EQ(vmaf_read_pictures(c.vmaf, nullptr, nullptr, 0), 0);
  std::vector<double> all;
  for (unsigned i = 0; i < frames; ++i) c.read(i, all);
  size_t k = 0;
  for (const unsigned i : read_after) {
    if (i == 0 || i >= frames) continue;
    for (size_t n = kLate; n < std::size(kNames); ++n, ++k) {
      const double late = all[size_t(i - 1) * kScores + n];
      EXPECT_EQ(std::memcmp(&early[k], &late, sizeof late), 0)
          << kNames[n] << " of frame " << i - 1 << ": read early " << early[k] << ", late " << late;
    }
  }
  return all;
}

void expect_same_bits(const std::vector<double>& want, const std::vector<double>& got,
                      const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what;
  size_t differ = 0;
  for (size_t i = 0; i < want.size(); ++i)
    if (std::memcmp(&want[i], &got[i], sizeof(double)) != 0 && ++differ <= 5)
      ADD_FAILURE() << what << ": frame " << i / kScores << ", "
                    << (i % kScores < std::size(kNames) ? kNames[i % kScores] : "vmaf") << ": "
                    << want[i] << " vs " << got[i];
  EXPECT_EQ(differ, 0u) << what;
}

TEST(LibvmafApiPipeline, MoreThreadsThanFramesScoreAsOneThread) {
  const std::vector<double> alone = scores(0, 5, {});
  expect_same_bits(alone, scores(8, 5, {}), "n_threads 8, read after the flush");
  // Each read settles one frame's batch: batches of one frame, eight threads.
  expect_same_bits(alone, scores(8, 5, {1, 2, 3, 4}), "n_threads 8, read after every frame");
}

TEST(LibvmafApiPipeline, ManyBatchesInFlightScoreAsOneThread) {
  const unsigned frames = 23;
  const std::vector<double> alone = scores(0, frames, {});
  for (const unsigned threads : {1u, 2u, 3u, 4u}) {
    const std::string what = "n_threads " + std::to_string(threads);
    expect_same_bits(alone, scores(threads, frames, {}), what);
    // Reads while batches are in flight cut batches short at uneven places.
    expect_same_bits(alone, scores(threads, frames, {3, 4, 9, 16, 17, 22}),
                     what + ", reads between");
  }
}

TEST(LibvmafApiPipeline, CloseWithBatchesInFlight) {
  for (const unsigned threads : {2u, 4u}) {
    Context c(threads);
    for (unsigned i = 0; i < 11; ++i) {
      VmafPicture ref, dist;
      make_pair(i, ref, dist);
      ASSERT_EQ(vmaf_read_pictures(c.vmaf, &ref, &dist, i), 0) << i;
    }
    // Closed (by ~Context) without the flush while the last batches score.
  }
}

}  // namespace
