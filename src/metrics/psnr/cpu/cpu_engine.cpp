// The psnr engine on the CPU: the SIMD sum of squared errors (sse.h) over row
// bands of every plane on the setup's thread pool (an integer sum: any split
// gives the same bits).
#include <algorithm>
#include <vector>

#include "metrics/psnr/engine.h"
#include "metrics/psnr/sse.h"

namespace exactvq::psnr::cpu {

namespace {

class CpuEngine final : public Engine {
 public:
  explicit CpuEngine(const EngineSetup& s) : setup_(s) {
    // Bands of fewer than kMinBandRows rows cost more to hand out than to sum.
    constexpr int kMinBandRows = 16;
    const int threads = s.pool ? s.pool->size() : 1;
    bands_ = std::max(1, std::min(threads, s.format.height / kMinBandRows));
    partial_.resize(size_t(s.planes * bands_));
  }

  int batch_frames() const override { return 1; }

  void score(std::span<const FramePair> frames, std::span<uint64_t> out) override {
    const int planes = setup_.planes, tasks = planes * bands_;
    for (size_t f = 0; f < frames.size(); ++f) {
      const auto body = [&](int task) {
        const int p = task / bands_, band = task % bands_;
        const PlaneView r = frames[f].ref->plane(p), d = frames[f].dist->plane(p);
        const int y0 = int(int64_t{r.height} * band / bands_);
        const int y1 = int(int64_t{r.height} * (band + 1) / bands_);
        partial_[size_t(task)] = psnr::sse(r, d, y0, y1);
      };
      if (setup_.pool && tasks > 1)
        setup_.pool->parallel_for(tasks, body);
      else
        for (int t = 0; t < tasks; ++t) body(t);
      for (int p = 0; p < planes; ++p) {
        uint64_t total = 0;
        for (int band = 0; band < bands_; ++band) total += partial_[size_t(p * bands_ + band)];
        out[f * size_t(planes) + size_t(p)] = total;
      }
    }
  }

 private:
  EngineSetup setup_;
  int bands_ = 1;
  std::vector<uint64_t> partial_;  // one per (plane, band), task order
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device&, const EngineSetup& setup) {
  return std::make_unique<CpuEngine>(setup);
}

}  // namespace exactvq::psnr::cpu
