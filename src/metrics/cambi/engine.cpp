#include "metrics/cambi/engine.h"

#include "metrics/make_engine.h"

namespace exactvq::cambi {

// The CPU's only, for now: CUDA and OpenCL devices say the feature is not available there.
std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  static constexpr EngineFactories<Engine, EngineSetup> kFactories{&cpu::make_engine, nullptr,
                                                                   nullptr};
  return make_engine_on(device, setup, kFactories, "cambi");
}

}  // namespace exactvq::cambi
