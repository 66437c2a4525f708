// The vif engine on the CPU: the pyramid with the SIMD row stages, one frame a
// task on the setup's thread pool.
#include "metrics/vif/cpu/vif_simd.h"
#include "metrics/vif/engine.h"

namespace exactvq::vif {

namespace {

class CpuEngine final : public Engine {
 public:
  explicit CpuEngine(const EngineSetup& s) : setup_(s) {}

  int batch_frames() const override { return setup_.pool ? setup_.pool->size() : 1; }

  void level_sums(std::span<const FramePair> frames, std::span<VifLevelSums> out) override {
    const auto body = [&](int i) {
      const FramePair& f = frames[size_t(i)];
      out[size_t(i)] = cpu::vif_simd_level_sums(f.ref->plane(0), f.dist->plane(0), setup_.format.bitdepth,
                                                setup_.options);
    };
    parallel_for(setup_.pool, int(frames.size()), body);
  }

 private:
  EngineSetup setup_;
};

}  // namespace

std::unique_ptr<Engine> make_cpu_engine(const EngineSetup& setup) { return std::make_unique<CpuEngine>(setup); }

}  // namespace exactvq::vif
