#include "metrics/float_ssim/engine.h"

#include "metrics/make_engine.h"

namespace exactvq::float_ssim {

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  static constexpr EngineFactories<Engine, EngineSetup> kFactories{
      &cpu::make_engine, EXACTVQ_CUDA_FACTORY(&cuda::make_engine),
      EXACTVQ_OPENCL_FACTORY(&opencl::make_engine)};
  return make_engine_on(device, setup, kFactories,
                        setup.multiscale ? "float_ms_ssim" : "float_ssim");
}

}  // namespace exactvq::float_ssim
