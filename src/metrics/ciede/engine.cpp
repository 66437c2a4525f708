#include "metrics/ciede/engine.h"

#include "metrics/make_engine.h"

namespace exactvq::ciede {

// The CPU only, for now: on CUDA and OpenCL make_engine_on says the feature is
// not available there.
std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  static constexpr EngineFactories<Engine, EngineSetup> kFactories{&cpu::make_engine, nullptr,
                                                                   nullptr};
  return make_engine_on(device, setup, kFactories, "ciede");
}

}  // namespace exactvq::ciede
