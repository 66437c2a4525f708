// The psnr_hvs engine on the CPU: each plane of each frame pair one task on the
// setup's thread pool, its sum by the SIMD kernel (cpu/error_sum_simd.h). A
// plane's sum is one sequential binary32 sum, so a plane is never split. A
// batch holds a frame for each thread.
#include "metrics/psnr_hvs/engine.h"
#include "metrics/psnr_hvs/cpu/error_sum_simd.h"

namespace exactvq::psnr_hvs::cpu {

namespace {

class CpuEngine final : public Engine {
 public:
  explicit CpuEngine(const EngineSetup& s) : setup_(s) {}

  int batch_frames() const override { return setup_.pool ? setup_.pool->size() : 1; }

  void score(std::span<const FramePair> frames, std::span<float> out) override {
    const int planes = setup_.planes;
    parallel_for(setup_.pool, int(frames.size()) * planes, [&](int task) {
      const FramePair& f = frames[size_t(task / planes)];
      const int p = task % planes;
      out[size_t(task)] = plane_error_sum(f.ref->plane(p), f.dist->plane(p), p);
    });
  }

 private:
  EngineSetup setup_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device&, const EngineSetup& setup) {
  return std::make_unique<CpuEngine>(setup);
}

}  // namespace exactvq::psnr_hvs::cpu
