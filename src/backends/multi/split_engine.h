// One engine over several devices, whatever the metric: each device's engine of
// the metric on its contiguous share of every batch, all at once. A temporal
// engine (each frame's value reads the frames before it, kept on its device)
// runs on the first device alone: it is a small share of the work, and one
// device keeps the run's order and state rather than passing pictures between
// devices.
#pragma once

#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "backends/multi/multi_device.h"
#include "metrics/engine.h"

namespace exactvq::multi {

template <typename Engine>
class SplitEngine final : public Engine {
 public:
  using Value = typename Engine::Value;

  SplitEngine(std::shared_ptr<DeviceShares> shares, std::vector<std::unique_ptr<Engine>> parts,
              size_t values_per_frame)
      : shares_(std::move(shares)), parts_(std::move(parts)), per_frame_(values_per_frame) {}

  // A full batch for every device.
  int batch_frames() const override {
    int batch = 1;
    for (const auto& part : parts_) batch = std::max(batch, part->batch_frames());
    return batch * int(parts_.size());
  }
  void score(std::span<const FramePair> frames, std::span<Value> out) override {
    shares_->split(frames, out, per_frame_,
                   [&](size_t k, auto share, auto rows) { parts_[k]->score(share, rows); });
  }

 private:
  std::shared_ptr<DeviceShares> shares_;  // outlives the parts
  std::vector<std::unique_ptr<Engine>> parts_;
  size_t per_frame_;
};

// The engine of `setup` on the MultiDevice `several`: make(device, part_setup)
// for each of its devices, each part's setup with that device's own thread pool.
template <typename Engine, typename Setup, typename Make>
std::unique_ptr<Engine> make_split_engine(MultiDevice& several, const Setup& setup, Make&& make) {
  if constexpr (std::is_base_of_v<TemporalEngineBase, Engine>) {
    return make(*several.devices().front(), setup);
  } else {
    const int threads = setup.pool ? setup.pool->size() : 1;
    std::vector<std::unique_ptr<Engine>> parts;
    for (size_t k = 0; k < several.devices().size(); ++k) {
      Setup part = setup;
      part.pool = several.shares()->pool(k, threads);
      parts.push_back(make(*several.devices()[k], part));
    }
    return std::make_unique<SplitEngine<Engine>>(several.shares(), std::move(parts),
                                                 size_t(setup.planes));
  }
}

}  // namespace exactvq::multi
