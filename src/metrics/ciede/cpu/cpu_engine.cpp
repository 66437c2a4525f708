// The ciede engine on the CPU: the pixels' delta E computed in row bands on the
// setup's thread pool, a block of rows at a time, then added in raster order on
// one thread (a binary64 sum, whose bits depend on its order; the adds are a
// tiny part of the cost next to the C library's functions of every pixel). The
// bits do not depend on the number of threads.
#include <algorithm>
#include <vector>

#include "metrics/ciede/engine.h"
#include "metrics/ciede/reference.h"

namespace exactvq::ciede::cpu {

namespace {

class CpuEngine final : public Engine {
 public:
  explicit CpuEngine(const EngineSetup& s) : setup_(s) {
    // About four bands a thread, so a slow thread leaves part of its share to the others.
    const int threads = s.pool ? s.pool->size() : 1;
    bands_ = threads * 4;
    block_rows_ = std::min(s.format.height, bands_ * kBandRows);
    delta_e_.resize(size_t(s.format.width) * size_t(block_rows_));
  }

  int batch_frames() const override { return 1; }

  void score(std::span<const FramePair> frames, std::span<double> out) override {
    const int w = setup_.format.width, h = setup_.format.height;
    for (size_t f = 0; f < frames.size(); ++f) {
      const Picture& ref = *frames[f].ref;
      const Picture& dist = *frames[f].dist;
      double sum = 0.0;
      for (int top = 0; top < h; top += block_rows_) {
        const int rows = std::min(block_rows_, h - top);
        const int bands = std::min(rows, bands_);
        parallel_for(setup_.pool, bands, [&](int band) {
          const int y0 = int(int64_t{rows} * band / bands);
          const int y1 = int(int64_t{rows} * (band + 1) / bands);
          for (int y = y0; y < y1; ++y)
            delta_e_row(ref, dist, top + y, delta_e_.data() + size_t(y) * size_t(w));
        });
        const size_t n = size_t(rows) * size_t(w);
        for (size_t i = 0; i < n; ++i) sum += double(delta_e_[i]);
      }
      out[f] = sum;
    }
  }

 private:
  static constexpr int kBandRows = 8;  // rows a band of a block
  EngineSetup setup_;
  int bands_ = 1, block_rows_ = 1;
  std::vector<float> delta_e_;  // a block's, row after row
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device&, const EngineSetup& setup) {
  return std::make_unique<CpuEngine>(setup);
}

}  // namespace exactvq::ciede::cpu
