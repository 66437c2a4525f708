// The motion engine of several devices (backends/multi/): the first device's
// engine scores every frame. Each SAD reads the frame before it, which the
// engine keeps on its device; the SAD is a small share of VMAF's work, so one
// device keeps the run's order and state rather than passing pictures between
// devices.
#include "backends/multi/multi_device.h"
#include "metrics/motion/engine.h"

namespace exactvq::motion {

std::unique_ptr<Engine> make_split_engine(MultiDevice& devices, const EngineSetup& setup) {
  return devices.devices().front()->motion_engine(setup);
}

}  // namespace exactvq::motion
