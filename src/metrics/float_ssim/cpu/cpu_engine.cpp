// The float_ssim engine on the CPU: the reference's pipeline with the SIMD row
// stages (float_ssim_simd.h), one frame a task on the setup's thread pool.
#include "backends/cpu/frame_task_engine.h"
#include "metrics/float_ssim/cpu/float_ssim_simd.h"
#include "metrics/float_ssim/engine.h"

namespace exactvq::float_ssim::cpu {

std::unique_ptr<Engine> make_engine(Device&, const EngineSetup& setup) {
  return exactvq::cpu::make_frame_task_engine<Engine>(
      setup, [](const EngineSetup& s, const FramePair& f, std::span<FrameMeans> out) {
        const PlaneView ref = f.ref->plane(0), dist = f.dist->plane(0);
        const int bitdepth = s.format.bitdepth;
        ScaleMeans& m = out[0].scales;
        if (s.multiscale)
          m = float_ms_ssim_means(ref, dist, bitdepth, kSimdStages);
        else
          m[0] = float_ssim_means(ref, dist, bitdepth, s.factor, kSimdStages);
      });
}

}  // namespace exactvq::float_ssim::cpu
