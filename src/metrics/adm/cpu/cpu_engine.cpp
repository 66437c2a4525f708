// The adm engine on the CPU: the driver with the SIMD row routines, one frame
// a task on the setup's thread pool.
#include "backends/cpu/frame_task_engine.h"
#include "metrics/adm/cpu/adm_simd.h"
#include "metrics/adm/engine.h"

namespace exactvq::adm::cpu {

std::unique_ptr<Engine> make_engine(Device&, const EngineSetup& setup) {
  return exactvq::cpu::make_frame_task_engine<Engine>(
      setup, [](const EngineSetup& s, const FramePair& f, std::span<AdmSums> out) {
        out[0] = adm_integer_sums(f.ref->plane(0), f.dist->plane(0), s.format.bitdepth, s.options,
                                  simd_row_kernels());
      });
}

}  // namespace exactvq::adm::cpu
