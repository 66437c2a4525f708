#include "metrics/cambi/engine.h"

#include "metrics/make_engine.h"

namespace exactvq::cambi {

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  static constexpr EngineFactories<Engine, EngineSetup> kFactories{
      &cpu::make_engine, EXACTVQ_CUDA_FACTORY(&cuda::make_engine),
      EXACTVQ_OPENCL_FACTORY(&opencl::make_engine)};
  return make_engine_on(device, setup, kFactories, "cambi");
}

}  // namespace exactvq::cambi
