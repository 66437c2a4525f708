// How a metric makes its engine (metrics/<metric>/engine.cpp): it lists its
// backends' factories, and make_engine_on() calls the one for the device's kind
// (an explicit list: a static library drops objects nothing references, so
// self-registering factories would vanish). Adding a backend adds a kind and a
// factory slot here; adding a metric adds nothing here.
#pragma once

#include <memory>
#include <string_view>

#include <fmt/format.h>

#include "backends/device.h"
#include "backends/multi/split_engine.h"
#include "core/error.h"
#include "metrics/engine.h"

namespace exactvq {

// A metric's engine factories, one per backend; null where the metric has no
// engine on that backend or it is not compiled in (EXACTVQ_CUDA_FACTORY).
template <typename Engine, typename Setup>
struct EngineFactories {
  using Make = std::unique_ptr<Engine> (*)(Device&, const Setup&);
  Make cpu = nullptr;
  Make cuda = nullptr;
  Make opencl = nullptr;
};

#ifdef EXACTVQ_HAVE_CUDA
#define EXACTVQ_CUDA_FACTORY(f) (f)
#else
#define EXACTVQ_CUDA_FACTORY(f) nullptr
#endif
#ifdef EXACTVQ_HAVE_OPENCL
#define EXACTVQ_OPENCL_FACTORY(f) (f)
#else
#define EXACTVQ_OPENCL_FACTORY(f) nullptr
#endif

// `feature`'s engine of `setup` on `device`, from the factory of its kind (on
// several devices, one on each). Throws DeviceError when the device has none, or
// when making it fails (in the device's words: Device::failure_in).
template <typename Engine, typename Setup>
std::unique_ptr<Engine> make_engine_on(Device& device, const Setup& setup,
                                       const EngineFactories<Engine, Setup>& factories,
                                       std::string_view feature) {
  typename EngineFactories<Engine, Setup>::Make make = nullptr;
  switch (device.kind()) {
    case DeviceKind::kCpu:
      make = factories.cpu;
      break;
    case DeviceKind::kCuda:
      make = factories.cuda;
      break;
    case DeviceKind::kOpenCL:
      make = factories.opencl;
      break;
    case DeviceKind::kSeveral:
      return multi::make_split_engine<Engine>(
          static_cast<MultiDevice&>(device), setup, [&](Device& part, const Setup& s) {
            return make_engine_on<Engine>(part, s, factories, feature);
          });
    case DeviceKind::kOther:
      break;
  }
  std::unique_ptr<Engine> engine;
  if (make) {
    try {
      engine = make(device, setup);
    } catch (const DeviceError& e) {
      throw DeviceError(device.failure_in(feature, e.what()));
    }
  }
  if (!engine) throw NoEngineError(std::string(feature), device.description());
  return engine;
}

}  // namespace exactvq
