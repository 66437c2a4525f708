// The ciede engine on the CPU: the pixels' delta E computed in row bands on the
// setup's thread pool, a block of rows at a time, then added in raster order on
// one thread (a binary64 sum, whose bits depend on its order; the adds are a
// tiny part of the cost next to the C library's functions of every pixel). The
// bits do not depend on the number of threads. Each band converts colours through
// its own memo (lab_cache.h).
#include <algorithm>
#include <vector>

#include "metrics/ciede/cpu/lab_cache.h"
#include "metrics/ciede/definition.h"
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
    for (int b = 0; b < bands_; ++b) {
      caches_.emplace_back(s.format.bitdepth);
      samples_.emplace_back(2 * size_t(s.format.width));
    }
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
          LabCache& colour = caches_[size_t(band)];
          PixelSamples* r = samples_[size_t(band)].data();
          PixelSamples* d = r + w;
          for (int y = y0; y < y1; ++y) {
            row_samples(ref, top + y, r);
            row_samples(dist, top + y, d);
            float* row = delta_e_.data() + size_t(y) * size_t(w);
            for (int x = 0; x < w; ++x) row[x] = delta_e_2000(colour(r[x]), colour(d[x]));
          }
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
  std::vector<float> delta_e_;                      // a block's, row after row
  std::vector<LabCache> caches_;                    // one a band
  std::vector<std::vector<PixelSamples>> samples_;  // a band's row of ref, then dist
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device&, const EngineSetup& setup) {
  return std::make_unique<CpuEngine>(setup);
}

}  // namespace exactvq::ciede::cpu
