// The adm engine of several devices (backends/multi/): each device's engine on
// its share of every batch, all at once (frames are independent).
#include "backends/multi/multi_device.h"
#include "metrics/adm/engine.h"

namespace exactvq::adm {

namespace {

class SplitEngine final : public Engine {
 public:
  explicit SplitEngine(EngineParts<Engine> parts) : parts_(std::move(parts)) {}

  int batch_frames() const override { return parts_.batch_frames(); }
  void integer_sums(std::span<const FramePair> frames, std::span<AdmSums> out) override {
    parts_.split(frames, out, [](Engine& e, auto share, auto rows) { e.integer_sums(share, rows); });
  }

 private:
  EngineParts<Engine> parts_;
};

}  // namespace

std::unique_ptr<Engine> make_split_engine(MultiDevice& devices, const EngineSetup& setup) {
  auto parts = devices.engines<Engine>(setup, [](Device& d, const EngineSetup& s) { return d.adm_engine(s); });
  return parts ? std::make_unique<SplitEngine>(std::move(*parts)) : nullptr;
}

}  // namespace exactvq::adm
