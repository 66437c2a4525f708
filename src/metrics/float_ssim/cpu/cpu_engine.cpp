// The float_ssim engine on the CPU: the reference's pipeline with the SIMD row
// stages (float_ssim_simd.h), one frame a task on the setup's thread pool.
#include "metrics/float_ssim/cpu/float_ssim_simd.h"
#include "metrics/float_ssim/engine.h"

namespace exactvq::float_ssim {

namespace {

class CpuEngine final : public Engine {
 public:
  explicit CpuEngine(const EngineSetup& s) : setup_(s) {}

  int batch_frames() const override { return setup_.pool ? setup_.pool->size() : 1; }

  void means(std::span<const FramePair> frames, std::span<FrameMeans> out) override {
    const int bitdepth = setup_.format.bitdepth;
    const auto body = [&](int i) {
      const PlaneView ref = frames[size_t(i)].ref->plane(0), dist = frames[size_t(i)].dist->plane(0);
      ScaleMeans& m = out[size_t(i)].scales;
      if (setup_.multiscale) m = float_ms_ssim_means(ref, dist, bitdepth, cpu::kSimdStages);
      else m[0] = float_ssim_means(ref, dist, bitdepth, setup_.factor, cpu::kSimdStages);
    };
    parallel_for(setup_.pool, int(frames.size()), body);
  }

 private:
  EngineSetup setup_;
};

}  // namespace

std::unique_ptr<Engine> make_cpu_engine(const EngineSetup& setup) { return std::make_unique<CpuEngine>(setup); }

}  // namespace exactvq::float_ssim
