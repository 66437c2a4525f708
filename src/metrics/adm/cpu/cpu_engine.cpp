// The adm engine on the CPU: the driver with the SIMD row routines, one frame
// a task on the setup's thread pool.
#include "metrics/adm/cpu/adm_simd.h"
#include "metrics/adm/engine.h"

namespace exactvq::adm {

namespace {

class CpuEngine final : public Engine {
 public:
  explicit CpuEngine(const EngineSetup& s) : setup_(s) {}

  int batch_frames() const override { return setup_.pool ? setup_.pool->size() : 1; }

  void integer_sums(std::span<const FramePair> frames, std::span<AdmSums> out) override {
    const auto body = [&](int i) {
      const FramePair& f = frames[size_t(i)];
      out[size_t(i)] = adm_integer_sums(f.ref->plane(0), f.dist->plane(0), setup_.format.bitdepth, setup_.options,
                                        cpu::simd_row_kernels());
    };
    parallel_for(setup_.pool, int(frames.size()), body);
  }

 private:
  EngineSetup setup_;
};

}  // namespace

std::unique_ptr<Engine> make_cpu_engine(const EngineSetup& setup) { return std::make_unique<CpuEngine>(setup); }

}  // namespace exactvq::adm
