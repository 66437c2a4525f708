// The ssim engine of several devices (backends/multi/): each device's engine on
// its share of every batch, all at once.
#include <algorithm>
#include <vector>

#include "backends/multi/multi_device.h"
#include "metrics/ssim/engine.h"

namespace exactvq::ssim {

namespace {

class SplitEngine final : public Engine {
 public:
  SplitEngine(std::shared_ptr<DeviceShares> shares, std::vector<std::unique_ptr<Engine>> parts, int planes)
      : shares_(std::move(shares)), parts_(std::move(parts)), planes_(size_t(planes)) {
    for (const auto& part : parts_) {
      batch_ = std::max(batch_, part->batch_frames());
      full_ = full_ || part->needs_full_batches();
    }
  }

  // A full batch for every device.
  int batch_frames() const override { return batch_ * int(parts_.size()); }
  bool needs_full_batches() const override { return full_; }

  void exact_sums(std::span<const FramePair> frames, std::span<int128> out) override {
    shares_->split(frames, out, planes_, [&](size_t k, auto share, auto rows) { parts_[k]->exact_sums(share, rows); });
  }

  void raster_sums(std::span<const FramePair> frames, std::span<double> out) override {
    shares_->split(frames, out, planes_, [&](size_t k, auto share, auto rows) { parts_[k]->raster_sums(share, rows); });
  }

 private:
  std::shared_ptr<DeviceShares> shares_;  // outlives the parts
  std::vector<std::unique_ptr<Engine>> parts_;  // one per device
  size_t planes_;
  int batch_ = 1;
  bool full_ = false;
};

}  // namespace

std::unique_ptr<Engine> make_split_engine(MultiDevice& devices, const EngineSetup& setup) {
  auto parts = devices.engines(setup, [](Device& d, const EngineSetup& s) { return d.ssim_engine(s); });
  if (parts.empty()) return nullptr;
  return std::make_unique<SplitEngine>(devices.shares(), std::move(parts), setup.planes);
}

}  // namespace exactvq::ssim
