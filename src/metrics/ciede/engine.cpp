#include "metrics/ciede/engine.h"

#include "core/error.h"
#include "metrics/make_engine.h"

namespace exactvq::ciede {

namespace {

[[maybe_unused]] std::unique_ptr<Engine> refuse_opencl(Device&, const EngineSetup&) {
  throw DeviceError(kNoOpenclEngine);
}

}  // namespace

// The CPU and CUDA (native binary64); OpenCL refuses, saying why.
std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  static constexpr EngineFactories<Engine, EngineSetup> kFactories{
      &cpu::make_engine, EXACTVQ_CUDA_FACTORY(&cuda::make_engine),
      EXACTVQ_OPENCL_FACTORY(&refuse_opencl)};
  return make_engine_on(device, setup, kFactories, "ciede");
}

}  // namespace exactvq::ciede
