// Threads change no bit: the ssim feature with 1, 2, 3 and 7 threads, in both
// sum modes, one frame at a time and in batches, through the library and the
// command line, against the scalar reference.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli_test_util.h"
#include "core/thread_pool.h"
#include "metrics/ssim/cpu/ssim_simd.h"
#include "metrics/feature.h"
#include "metrics/registry.h"
#include "metrics/feature_spec.h"
#include "metrics/ssim/reference.h"

namespace exactvq {
namespace {

using namespace clitest;

constexpr int kThreadCounts[] = {1, 2, 3, 7};

// The CPU scorer runs stage by stage unless EXACTVQ_CPU_FUSED is set to
// something other than 0 (either gives the same bits: tests/twins/).
TEST(FusedDefault, StageByStageUnlessAsked) {
  const char* v = std::getenv("EXACTVQ_CPU_FUSED");
  EXPECT_EQ(cpu::fused_window_terms(), v != nullptr && std::string(v) != "0");
}

struct Clip {
  VideoFormat format;
  std::vector<Picture> ref, dist;
};

Clip make_clip(int w, int h, int bitdepth, int frames) {
  Clip c;
  c.format = make_format(w, h, ChromaFormat::k420, bitdepth);
  for (int i = 0; i < frames; ++i) {
    c.ref.push_back(to_picture(c.format, make_frame(c.format, i, 0)));
    c.dist.push_back(to_picture(c.format, make_frame(c.format, i, 3)));
  }
  return c;
}

// The scalar reference's scores, frame by frame, plane by plane.
std::vector<double> reference_scores(const Clip& c, bool raster) {
  std::vector<double> out;
  for (size_t f = 0; f < c.ref.size(); ++f)
    for (int p = 0; p < 3; ++p) {
      const PlaneView r = c.ref[f].plane(p), d = c.dist[f].plane(p);
      out.push_back(raster ? ssim::score_raster(r, d, c.format.bitdepth)
                           : ssim::score_exact(r, d, c.format.bitdepth));
    }
  return out;
}

TEST(SsimThreads, EveryThreadCountAndBatchGivesTheReferenceBits) {
  int checks = 0;
  for (int bitdepth : {8, 10, 16})
    for (const char* mode : {"exact", "raster"}) {
      const Clip clip = make_clip(37, 61, bitdepth, 9);
      const std::vector<double> want = reference_scores(clip, std::string(mode) == "raster");
      for (int threads : kThreadCounts) {
        SCOPED_TRACE(testing::Message()
                     << mode << ", " << bitdepth << " bits, " << threads << " threads");
        ThreadPool pool(threads);
        FeatureContext ctx;
        ctx.format = clip.format;
        ctx.pool = &pool;
        const FeatureSpec spec = parse_feature_spec(std::string("ssim=chroma=true:sum=") + mode);
        auto feature = make_feature(spec, ctx);
        ASSERT_EQ(feature->outputs().size(), 3u);
        // Batches of every size from 1 to the feature's own, and single frames.
        for (size_t batch = 1; batch <= size_t(feature->batch_frames()) + 1; ++batch) {
          std::vector<double> got(want.size());
          for (size_t f0 = 0; f0 < clip.ref.size(); f0 += batch) {
            std::vector<FramePair> pairs;
            for (size_t f = f0; f < std::min(clip.ref.size(), f0 + batch); ++f)
              pairs.push_back({&clip.ref[f], &clip.dist[f], int64_t(f)});
            feature->extract_batch(pairs, std::span(got).subspan(f0 * 3, pairs.size() * 3));
          }
          for (size_t i = 0; i < want.size(); ++i)
            ASSERT_EQ(bits(got[i]), bits(want[i]))
                << "frame " << i / 3 << " plane " << i % 3 << ", batches of " << batch;
          checks += int(want.size());
        }
        std::vector<double> one(3);
        feature->extract(clip.ref[4], clip.dist[4], one);
        for (int p = 0; p < 3; ++p) ASSERT_EQ(bits(one[size_t(p)]), bits(want[size_t(12 + p)]));
      }
    }
  std::printf("threads: %d bit-identical scores\n", checks);
}

// `raster` keeps each plane one sequential pass, so only whole frames run side
// by side: a batch holds a frame for every thread, and a few more so that one
// slowed thread does not idle the rest at the batch's end, within about 512 MiB
// of pictures (or the 8 frames it always held). `exact` shares out row bands.
TEST(SsimThreads, RasterBatchesHoldFramesForEveryThread) {
  constexpr size_t kBudget = size_t{512} << 20;
  for (const auto& [w, h] : {std::pair{1920, 1080}, std::pair{3840, 2160}, std::pair{7680, 4320}})
    for (int threads : {1, 2, 16, 48}) {
      SCOPED_TRACE(testing::Message() << w << "x" << h << ", " << threads << " threads");
      ThreadPool pool(threads);
      FeatureContext ctx;
      ctx.format = make_format(w, h, ChromaFormat::k420, 8);
      ctx.pool = &pool;
      const size_t pair_bytes = 2 * ctx.format.frame_bytes();
      const int raster = make_feature(parse_feature_spec("ssim=sum=raster"), ctx)->batch_frames();
      const int exact = make_feature(parse_feature_spec("ssim=sum=exact"), ctx)->batch_frames();
      const int floor = std::min(threads, 8);
      EXPECT_GE(raster, floor);
      if (size_t(threads) * pair_bytes <= kBudget) {
        EXPECT_GE(raster, threads);
      }
      if (size_t(3 * threads) * pair_bytes <= kBudget) {
        EXPECT_EQ(raster, 3 * threads);
      } else if (raster > floor) {
        EXPECT_LE(size_t(raster) * pair_bytes, kBudget);
      }
      EXPECT_EQ(exact, std::min(threads, 4));
    }
}

TEST(SsimThreads, CommandLineThreadCountsGiveTheReferenceBits) {
  const Clip clip = make_clip(64, 90, 10, 11);
  std::vector<Frame> ref_frames, dist_frames;
  for (int i = 0; i < 11; ++i) {
    ref_frames.push_back(make_frame(clip.format, i, 0));
    dist_frames.push_back(make_frame(clip.format, i, 3));
  }
  const fs::path dir = test_dir();
  write_file(dir / "r.y4m", y4m_bytes(clip.format, ref_frames));
  write_file(dir / "d.y4m", y4m_bytes(clip.format, dist_frames));
  for (const char* mode : {"exact", "raster"}) {
    const std::vector<double> want = reference_scores(clip, std::string(mode) == "raster");
    for (int threads : kThreadCounts) {
      SCOPED_TRACE(testing::Message() << mode << ", --threads " << threads);
      const std::string out =
          (dir / (std::string(mode) + std::to_string(threads) + ".json")).string();
      const RunResult run =
          run_cli({"-r", (dir / "r.y4m").string(), "-d", (dir / "d.y4m").string(), "--threads",
                   std::to_string(threads), "--precision", "max", "--feature",
                   std::string("ssim=chroma=true:sum=") + mode, "--json", "-o", out});
      ASSERT_EQ(run.status, 0) << describe(run);
      const Report report = parse_json(read_file(out));
      const char* names[] = {"ssim", "ssim_cb", "ssim_cr"};
      for (int p = 0; p < 3; ++p) {
        const auto& values = report.values.at(names[p]);
        ASSERT_EQ(values.size(), 11u);
        for (size_t f = 0; f < 11; ++f)
          ASSERT_EQ(bits(values[f]), bits(want[f * 3 + size_t(p)])) << names[p] << " frame " << f;
      }
    }
  }
}

}  // namespace
}  // namespace exactvq
