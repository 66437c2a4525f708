// The psnr engine of several devices (backends/multi/): each device's engine on
// its share of every batch, all at once.
#include <algorithm>
#include <vector>

#include "backends/multi/multi_device.h"
#include "metrics/psnr/engine.h"

namespace exactvq::psnr {

namespace {

class SplitEngine final : public Engine {
 public:
  SplitEngine(std::shared_ptr<DeviceShares> shares, std::vector<std::unique_ptr<Engine>> parts, int planes)
      : shares_(std::move(shares)), parts_(std::move(parts)), planes_(size_t(planes)) {
    for (const auto& part : parts_) batch_ = std::max(batch_, part->batch_frames());
  }

  // A full batch for every device.
  int batch_frames() const override { return batch_ * int(parts_.size()); }

  void sse(std::span<const FramePair> frames, std::span<uint64_t> out) override {
    shares_->split(frames, out, planes_, [&](size_t k, auto share, auto rows) { parts_[k]->sse(share, rows); });
  }

 private:
  std::shared_ptr<DeviceShares> shares_;  // outlives the parts
  std::vector<std::unique_ptr<Engine>> parts_;  // one per device
  size_t planes_;
  int batch_ = 1;
};

}  // namespace

std::unique_ptr<Engine> make_split_engine(MultiDevice& devices, const EngineSetup& setup) {
  auto parts = devices.engines(setup, [](Device& d, const EngineSetup& s) { return d.psnr_engine(s); });
  if (parts.empty()) return nullptr;
  return std::make_unique<SplitEngine>(devices.shares(), std::move(parts), setup.planes);
}

}  // namespace exactvq::psnr
