// The ssim engine on the CPU: the SIMD plane scorer (ssim_simd.h) over the
// setup's thread pool. `exact` cuts each plane into column strips or row bands,
// several for each thread (any split gives the same bits); `raster` keeps each plane
// one sequential pass and runs frames and planes side by side.
#include <algorithm>
#include <vector>

#include "metrics/ssim/cpu/ssim_simd.h"
#include "metrics/ssim/engine.h"

namespace exactvq::ssim {

namespace {

class CpuEngine final : public Engine {
 public:
  explicit CpuEngine(const EngineSetup& s) : setup_(s), threads_(s.pool ? s.pool->size() : 1) {}

  // Frames scored at once: in `raster` mode enough to keep every thread busy, in
  // `exact` mode a few (row bands share out the rest); capped to bound the
  // memory the batches hold (4K 4:2:0 8-bit: 25 MB a pair, and the reader fills
  // a second batch meanwhile).
  int batch_frames() const override {
    return std::clamp(threads_, 1, setup_.mode == SumMode::kRaster ? 8 : 4);
  }

  void exact_sums(std::span<const FramePair> frames, std::span<int128> out) override {
    const int frame_count = int(frames.size()), planes = setup_.planes;
    // Plane p in cuts[p].pieces tasks: piece k of plane p of frame f is task
    // f * per_frame + first[p] + k.
    Cut cuts[3];
    int first[3] = {}, per_frame = 0;
    for (int p = 0; p < planes; ++p) {
      cuts[p] = cut_of(p, frame_count * planes);
      first[p] = per_frame;
      per_frame += cuts[p].pieces;
    }
    partial_.assign(size_t(frame_count * per_frame), {});
    run(frame_count * per_frame, [&](int task) {
      const int f = task / per_frame, in_frame = task % per_frame;
      int p = 0;
      while (p + 1 < planes && in_frame >= first[p + 1]) ++p;
      const int k = in_frame - first[p], n = cuts[p].pieces;
      const PlaneView r = frames[size_t(f)].ref->plane(p), d = frames[size_t(f)].dist->plane(p);
      ssim::Rect piece{0, 0, r.width, r.height};
      if (cuts[p].columns) {
        piece.x0 = int(int64_t{r.width} * k / n);
        piece.x1 = int(int64_t{r.width} * (k + 1) / n);
      } else {
        piece.y0 = int(int64_t{r.height} * k / n);
        piece.y1 = int(int64_t{r.height} * (k + 1) / n);
      }
      partial_[size_t(task)] = cpu::exact_sum(r, d, setup_.format.bitdepth, piece).sum_q;
    });
    for (int f = 0; f < frame_count; ++f)
      for (int p = 0; p < planes; ++p) {
        int128 total = 0;
        for (int k = 0; k < cuts[p].pieces; ++k) total += partial_[size_t(f * per_frame + first[p] + k)];
        out[size_t(f * planes + p)] = total;
      }
  }

  void raster_sums(std::span<const FramePair> frames, std::span<double> out) override {
    const int planes = setup_.planes;
    run(int(frames.size()) * planes, [&](int task) {
      const FramePair& pair = frames[size_t(task / planes)];
      const int p = task % planes;
      out[size_t(task)] = cpu::raster_sum(pair.ref->plane(p), pair.dist->plane(p), setup_.format.bitdepth);
    });
  }

 private:
  // How a plane is cut into tasks: whole on one thread. With several threads,
  // many small tasks, so that a thread slowed (by the reader beside it, by other
  // processes) leaves its share to the others instead of keeping them idle at
  // the end of the batch: one task a column strip where the plane runs in
  // several (exact_sum's own strips: nothing is computed twice); else row bands,
  // about kTasksPerThread a thread, of at least kBandRows rows (each band also
  // filters the 8 rows around it).
  struct Cut {
    int pieces = 1;
    bool columns = false;
  };
  Cut cut_of(int plane, int planes_in_batch) const {
    if (threads_ <= 1) return {};
    const int width = setup_.format.plane_width(plane), height = setup_.format.plane_height(plane);
    const int most = cpu::strip_columns(setup_.format.bitdepth);
    if (width > most) return {(width + most - 1) / most, true};
    constexpr int kTasksPerThread = 4, kBandRows = 64;
    const int wanted = (kTasksPerThread * threads_ + planes_in_batch - 1) / planes_in_batch;
    return {std::clamp(wanted, 1, std::max(1, height / kBandRows)), false};
  }

  template <typename Body>
  void run(int count, Body&& body) {
    if (setup_.pool) setup_.pool->parallel_for(count, body);
    else for (int i = 0; i < count; ++i) body(i);
  }

  EngineSetup setup_;
  int threads_ = 1;
  std::vector<int128> partial_;  // one per (frame, plane, band), task order
};

}  // namespace

std::unique_ptr<Engine> make_cpu_engine(const EngineSetup& setup) {
  return std::make_unique<CpuEngine>(setup);
}

}  // namespace exactvq::ssim
