// Several devices as one (--gpus): a metric's engine on a MultiDevice is the
// engines of its devices side by side (split_engine.h), and every batch of
// frames is cut into contiguous shares, one per device, scored at the same time
// (one host thread per device). Per-frame sums do not depend on which device computes them
// (spec/ssim.md), and a metric's aggregates come from the one feature over them
// all, so a run on N devices gives the bits of a run on one.
//
// Nothing here knows CUDA or OpenCL: any devices will do (the tests share frames
// out among CPU devices and OpenCL devices).
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "backends/device.h"
#include "core/thread_pool.h"

namespace exactvq {

// The shares of a batch of `frames` frames over `devices` devices: device k scores
// frames [first(k), first(k + 1)), first(k) = frames * k / devices (contiguous,
// sizes differing by at most one, in device order).
inline size_t share_start(size_t frames, size_t devices, size_t k) { return frames * k / devices; }

// The host threads and thread pools the devices' engines run on, shared by every
// engine of one MultiDevice (and kept alive by them).
class DeviceShares {
 public:
  explicit DeviceShares(size_t devices);
  ~DeviceShares();
  size_t devices() const { return devices_; }

  // Device k's thread pool, made at the first call with `total_threads` threads
  // in all, shared out among the devices (one pool cannot serve two callers at once).
  ThreadPool* pool(size_t k, int total_threads);

  // body(k) for every device k at once: device 0 on the calling thread, the
  // others on their own. Waits for all; rethrows the exception of the lowest
  // device that threw.
  void run(const std::function<void(size_t)>& body);

  // Cuts `frames` into the devices' shares and runs part(k, frames of device k,
  // their rows of `out`, per_frame values each) for every device at once.
  template <typename T, typename Part>
  void split(std::span<const FramePair> frames, std::span<T> out, size_t per_frame, Part&& part) {
    const size_t n = frames.size();
    if (n == 0) return;
    run([&](size_t k) {
      const size_t first = share_start(n, devices_, k), end = share_start(n, devices_, k + 1);
      if (first == end) return;
      part(k, frames.subspan(first, end - first),
           out.subspan(first * per_frame, (end - first) * per_frame));
    });
  }

 private:
  class Thread;
  size_t devices_;
  std::vector<std::unique_ptr<Thread>> threads_;  // devices 1..n-1
  std::mutex mutex_;
  std::vector<std::unique_ptr<ThreadPool>> pools_;
};

class MultiDevice final : public Device {
 public:
  // `devices`: at least one, none null; each must be an independent object (its
  // engines are used from their own host thread, beside the others').
  explicit MultiDevice(std::vector<std::shared_ptr<Device>> devices);

  // "2 devices: <first>; <second>".
  std::string description() const override;
  DeviceKind kind() const override { return DeviceKind::kSeveral; }

  const std::vector<std::shared_ptr<Device>>& devices() const { return devices_; }
  const std::shared_ptr<DeviceShares>& shares() const { return shares_; }

 private:
  std::vector<std::shared_ptr<Device>> devices_;
  std::shared_ptr<DeviceShares> shares_;
};

}  // namespace exactvq
