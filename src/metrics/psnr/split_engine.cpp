// The psnr engine of several devices (backends/multi/): each device's engine on
// its share of every batch, all at once.
#include "backends/multi/multi_device.h"
#include "metrics/psnr/engine.h"

namespace exactvq::psnr {

namespace {

class SplitEngine final : public Engine {
 public:
  explicit SplitEngine(EngineParts<Engine> parts) : parts_(std::move(parts)) {}

  int batch_frames() const override { return parts_.batch_frames(); }
  void sse(std::span<const FramePair> frames, std::span<uint64_t> out) override {
    parts_.split(frames, out, [](Engine& e, auto share, auto rows) { e.sse(share, rows); });
  }

 private:
  EngineParts<Engine> parts_;
};

}  // namespace

std::unique_ptr<Engine> make_split_engine(MultiDevice& devices, const EngineSetup& setup) {
  auto parts = devices.engines<Engine>(setup, [](Device& d, const EngineSetup& s) { return d.psnr_engine(s); });
  return parts ? std::make_unique<SplitEngine>(std::move(*parts)) : nullptr;
}

}  // namespace exactvq::psnr
