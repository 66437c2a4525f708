#include "metrics/psnr_hvs/engine.h"

#include "metrics/make_engine.h"

namespace exactvq::psnr_hvs {

// The CPU only for now: on CUDA and OpenCL make_engine_on says the feature is
// not available on the device.
std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  static constexpr EngineFactories<Engine, EngineSetup> kFactories{&cpu::make_engine, nullptr,
                                                                   nullptr};
  return make_engine_on(device, setup, kFactories, "psnr_hvs");
}

}  // namespace exactvq::psnr_hvs
