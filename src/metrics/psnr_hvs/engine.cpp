#include "metrics/psnr_hvs/engine.h"

#include "metrics/make_engine.h"

namespace exactvq::psnr_hvs {

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  static constexpr EngineFactories<Engine, EngineSetup> kFactories{
      &cpu::make_engine, EXACTVQ_CUDA_FACTORY(&cuda::make_engine),
      EXACTVQ_OPENCL_FACTORY(&opencl::make_engine)};
  return make_engine_on(device, setup, kFactories, "psnr_hvs");
}

}  // namespace exactvq::psnr_hvs
