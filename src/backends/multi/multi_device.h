// Several devices as one DeviceBackend (--gpus): each feature is made once per
// device, and every batch of frames is cut into contiguous shares, one per device,
// scored at the same time (one host thread per device). Per-frame scores do not
// depend on which device computes them (spec/ssim.md), and aggregates are merged
// from the features' exact integer state (Feature::aggregate_state), so a run on
// N devices gives the bits of a run on one.
//
// The wrapper knows nothing of CUDA or OpenCL: any DeviceBackends will do (the
// tests share frames out among CPU-backed test devices and OpenCL devices).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/device.h"

namespace exactvq {

class MultiDeviceBackend final : public DeviceBackend {
 public:
  // `devices`: at least one, none null; each must be an independent object (its
  // features are used from their own host thread, beside the others').
  explicit MultiDeviceBackend(std::vector<std::shared_ptr<DeviceBackend>> devices);
  ~MultiDeviceBackend() override;

  // "2 devices: <first>; <second>".
  std::string description() const override;
  // One feature per device behind one Feature: null when a device does not compute
  // `spec`. Each device's feature gets a thread pool of its own (ctx.pool's size
  // divided among the devices), since one pool cannot serve two callers at once.
  std::unique_ptr<Feature> make_feature(const FeatureSpec& spec, const FeatureContext& ctx) override;

  const std::vector<std::shared_ptr<DeviceBackend>>& devices() const { return devices_; }

  struct Shared;  // per-device threads and pools, shared with the features

 private:
  std::vector<std::shared_ptr<DeviceBackend>> devices_;
  std::shared_ptr<Shared> shared_;
};

// The shares of a batch of `frames` frames over `devices` devices: device k scores
// frames [first(k), first(k + 1)), first(k) = frames * k / devices (contiguous,
// sizes differing by at most one, in device order).
inline size_t share_start(size_t frames, size_t devices, size_t k) { return frames * k / devices; }

}  // namespace exactvq
