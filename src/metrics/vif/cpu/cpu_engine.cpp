// The vif engine on the CPU: the pyramid with the SIMD row stages, one frame a
// task on the setup's thread pool.
#include "backends/cpu/frame_task_engine.h"
#include "metrics/vif/cpu/vif_simd.h"
#include "metrics/vif/engine.h"

namespace exactvq::vif::cpu {

std::unique_ptr<Engine> make_engine(Device&, const EngineSetup& setup) {
  return exactvq::cpu::make_frame_task_engine<Engine>(
      setup, [](const EngineSetup& s, const FramePair& f, std::span<VifLevelSums> out) {
        out[0] =
            vif_simd_level_sums(f.ref->plane(0), f.dist->plane(0), s.format.bitdepth, s.options);
      });
}

}  // namespace exactvq::vif::cpu
