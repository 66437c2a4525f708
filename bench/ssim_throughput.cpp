// Frames per second of the ssim feature on frame pairs held in RAM (no reader,
// no disk in the timing): the whole CPU path a run takes per frame, threads and
// frames in flight included.
//
//   ssim_throughput WIDTH HEIGHT BITS THREADS [exact|raster|bare] [SECONDS]
//
// `bare` runs THREADS plain threads, each scoring luma planes (exact) with
// cpu::score_exact on its own frames, without the feature, its pool or its
// batches: what the hardware gives threads that share nothing but the machine
// (cores or SMT siblings, caches, memory, clocks). exact/bare at the same
// thread count is what the feature's scheduling costs.
//
// Prints one line: the format, threads, mode, SIMD target, frames scored,
// frames/s, megapixels/s of luma, the process's peak RSS (MB) and how much of
// it grew after the synthetic frames were made (scoring's own buffers, beyond
// the peak of making the frames).
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "bench/plane_pair.h"
#include "core/thread_pool.h"
#include "backends/cpu/simd_targets.h"
#include "metrics/ssim/cpu/ssim_simd.h"
#include "metrics/feature.h"
#include "metrics/registry.h"
#include "metrics/feature_spec.h"

namespace {

using namespace exactvq;

// A 4:2:0 picture whose planes come from a synthetic pair (seeded per frame).
Picture make_picture(const VideoFormat& f, uint32_t seed, bool distorted) {
  Picture pic;
  pic.allocate(f);
  for (int p = 0; p < f.plane_count(); ++p) {
    const bench::PlanePair pair(f.plane_width(p), f.plane_height(p), f.bitdepth,
                                seed + uint32_t(p));
    const auto& src = distorted ? pair.dist : pair.ref;
    std::copy(src.begin(), src.end(), pic.plane_data(p));
  }
  return pic;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s WIDTH HEIGHT BITS THREADS [exact|raster] [SECONDS]\n", argv[0]);
    return 2;
  }
  VideoFormat format;
  format.width = std::atoi(argv[1]);
  format.height = std::atoi(argv[2]);
  format.bitdepth = std::atoi(argv[3]);
  format.chroma = ChromaFormat::k420;
  const int threads = std::atoi(argv[4]);
  const std::string mode = argc > 5 ? argv[5] : "exact";
  const double seconds = argc > 6 ? std::atof(argv[6]) : 3.0;

  constexpr int kDistinctFrames = 8;
  std::vector<Picture> ref, dist;
  for (int i = 0; i < kDistinctFrames; ++i) {
    ref.push_back(make_picture(format, uint32_t(100 * i), false));
    dist.push_back(make_picture(format, uint32_t(100 * i), true));
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const long frames_rss_kb = usage.ru_maxrss;  // the synthetic frames held in RAM
  using Clock = std::chrono::steady_clock;
  if (mode == "bare") {
    std::atomic<int64_t> frames{0};
    std::atomic<bool> stop{false};
    std::vector<std::thread> workers;
    const auto start = Clock::now();
    for (int t = 0; t < threads; ++t)
      workers.emplace_back([&, t] {
        for (int64_t i = t; !stop.load(std::memory_order_relaxed); i += threads) {
          const size_t f = size_t(i) % kDistinctFrames;
          volatile double score =
              cpu::score_exact(ref[f].plane(0), dist[f].plane(0), format.bitdepth);
          (void)score;
          frames.fetch_add(1, std::memory_order_relaxed);
        }
      });
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    stop = true;
    for (auto& w : workers) w.join();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    const double fps = double(frames.load()) / elapsed;
    std::printf("%dx%d %d-bit bare threads=%d target=%s frames=%lld MP/s=%.1f fps=%.1f\n",
                format.width, format.height, format.bitdepth, threads,
                cpu::current_target_name().c_str(), static_cast<long long>(frames.load()),
                fps * format.width * format.height / 1e6, fps);
    return 0;
  }
  ThreadPool pool(threads);
  FeatureContext ctx;
  ctx.format = format;
  ctx.pool = &pool;
  auto feature = make_feature(parse_feature_spec("ssim=sum=" + mode), ctx);
  const size_t batch = size_t(feature->batch_frames());
  std::vector<double> out(batch * feature->outputs().size());
  std::vector<FramePair> pairs(batch);

  int64_t frames = 0;
  const auto start = Clock::now();
  double elapsed = 0;
  do {
    for (size_t i = 0; i < batch; ++i) {
      const size_t f = size_t(frames + int64_t(i)) % kDistinctFrames;
      pairs[i] = {&ref[f], &dist[f], frames + int64_t(i)};
    }
    feature->extract_batch(pairs, out);
    frames += int64_t(batch);
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < seconds);
  getrusage(RUSAGE_SELF, &usage);
  const double fps = double(frames) / elapsed;
  std::printf(
      "%dx%d %d-bit %s threads=%d target=%s frames=%lld MP/s=%.1f peak_rss_MB=%.1f "
      "above_frames_MB=%.1f fps=%.1f\n",
      format.width, format.height, format.bitdepth, mode.c_str(), threads,
      cpu::current_target_name().c_str(), static_cast<long long>(frames),
      fps * format.width * format.height / 1e6, double(usage.ru_maxrss) / 1024.0,
      double(usage.ru_maxrss - frames_rss_kb) / 1024.0, fps);
  return 0;
}
