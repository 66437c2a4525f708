// The ssim engine on the CPU: the SIMD plane scorer (ssim_simd.h) over the
// setup's thread pool. `exact` cuts each plane into row bands, several for each
// thread (any split gives the same bits); `raster` keeps each plane
// one sequential pass and runs frames and planes side by side.
#include <algorithm>
#include <vector>

#include "metrics/ssim/cpu/ssim_simd.h"
#include "metrics/ssim/engine.h"

namespace exactvq::ssim::cpu {

namespace {

class CpuEngine final : public SumEngine {
 public:
  explicit CpuEngine(const EngineSetup& s)
      : SumEngine(s.mode), setup_(s), threads_(s.pool ? s.pool->size() : 1) {}

  // Frames scored at once. `exact`: a few (row bands share out the rest).
  // `raster`: a task a plane, so about kRasterFramesPerThread frames a thread: a
  // thread slowed down near the end of a batch then leaves little for the others
  // to wait on. Within kRasterBatchBytes of pictures (4K 4:2:0 8-bit: 25 MB a
  // pair; the reader fills a second batch meanwhile), but always a frame for each
  // thread where that budget holds them, and for each of the first 8 threads
  // whatever the budget.
  int batch_frames() const override {
    if (setup_.mode != SumMode::kRaster) return std::clamp(threads_, 1, 4);
    constexpr int kRasterFramesPerThread = 3, kRasterFloor = 8;
    constexpr size_t kRasterBatchBytes = size_t{512} << 20;
    const size_t pair_bytes = std::max<size_t>(1, 2 * setup_.format.frame_bytes());
    const int by_memory = int(std::clamp<size_t>(kRasterBatchBytes / pair_bytes, 1, 1024));
    const int floor = std::min(threads_, std::max(kRasterFloor, by_memory));
    return std::max(floor, std::min(kRasterFramesPerThread * threads_, by_memory));
  }

 private:
  void exact_sums(std::span<const FramePair> frames, std::span<int128> out) override {
    const int frame_count = int(frames.size()), planes = setup_.planes;
    const int bands = bands_per_plane(frame_count * planes);
    partial_.assign(size_t(frame_count * planes * bands), {});
    run(frame_count * planes * bands, [&](int task) {
      const int f = task / (planes * bands), p = task / bands % planes, band = task % bands;
      const PlaneView r = frames[size_t(f)].ref->plane(p), d = frames[size_t(f)].dist->plane(p);
      const int y0 = int(int64_t{r.height} * band / bands);
      const int y1 = int(int64_t{r.height} * (band + 1) / bands);
      partial_[size_t(task)] =
          exactvq::cpu::exact_sum(r, d, setup_.format.bitdepth, {0, y0, r.width, y1}).sum_q;
    });
    for (int fp = 0; fp < frame_count * planes; ++fp) {
      int128 total = 0;
      for (int band = 0; band < bands; ++band) total += partial_[size_t(fp * bands + band)];
      out[size_t(fp)] = total;
    }
  }

  void raster_sums(std::span<const FramePair> frames, std::span<double> out) override {
    const int planes = setup_.planes;
    run(int(frames.size()) * planes, [&](int task) {
      const FramePair& pair = frames[size_t(task / planes)];
      const int p = task % planes;
      out[size_t(task)] =
          exactvq::cpu::raster_sum(pair.ref->plane(p), pair.dist->plane(p), setup_.format.bitdepth);
    });
  }

  // With several threads, about kTasksPerThread row bands each: a thread slowed
  // down (by the reader beside it, by other processes) leaves part of its share
  // to the others instead of keeping them idle at the end of the batch. Bands of
  // at least kBandRows rows: each band also filters the 8 rows around it.
  int bands_per_plane(int planes_in_batch) const {
    if (threads_ <= 1) return 1;
    constexpr int kTasksPerThread = 4, kBandRows = 64;
    const int wanted = (kTasksPerThread * threads_ + planes_in_batch - 1) / planes_in_batch;
    return std::clamp(wanted, 1, std::max(1, setup_.format.height / kBandRows));
  }

  template <typename Body>
  void run(int count, Body&& body) {
    if (setup_.pool)
      setup_.pool->parallel_for(count, body);
    else
      for (int i = 0; i < count; ++i) body(i);
  }

  EngineSetup setup_;
  int threads_ = 1;
  std::vector<int128> partial_;  // one per (frame, plane, band), task order
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device&, const EngineSetup& setup) {
  return std::make_unique<CpuEngine>(setup);
}

}  // namespace exactvq::ssim::cpu
