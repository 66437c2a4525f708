// The float_ssim engine of several devices (backends/multi/): each device's
// engine on its share of every batch, all at once (frames are independent).
#include "backends/multi/multi_device.h"
#include "metrics/float_ssim/engine.h"

namespace exactvq::float_ssim {

namespace {

class SplitEngine final : public Engine {
 public:
  explicit SplitEngine(EngineParts<Engine> parts) : parts_(std::move(parts)) {}

  int batch_frames() const override { return parts_.batch_frames(); }
  void means(std::span<const FramePair> frames, std::span<FrameMeans> out) override {
    parts_.split(frames, out, [](Engine& e, auto share, auto rows) { e.means(share, rows); });
  }

 private:
  EngineParts<Engine> parts_;
};

}  // namespace

std::unique_ptr<Engine> make_split_engine(MultiDevice& devices, const EngineSetup& setup) {
  auto parts =
      devices.engines<Engine>(setup, [](Device& d, const EngineSetup& s) { return d.float_ssim_engine(s); });
  return parts ? std::make_unique<SplitEngine>(std::move(*parts)) : nullptr;
}

}  // namespace exactvq::float_ssim
