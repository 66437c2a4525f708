#include "backends/multi/multi_device.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "core/error.h"
#include "core/thread_pool.h"

namespace exactvq {

namespace {

// One host thread that runs one task at a time for its device.
class DeviceThread {
 public:
  DeviceThread() : thread_([this] { loop(); }) {}
  ~DeviceThread() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  DeviceThread(const DeviceThread&) = delete;
  DeviceThread& operator=(const DeviceThread&) = delete;

  void start(std::function<void()> task) {
    {
      std::lock_guard lock(mutex_);
      task_ = std::move(task);
      pending_ = true;
      done_ = false;
      error_ = nullptr;
    }
    changed_.notify_all();
  }

  // Waits for the task start() gave; its exception, if it threw.
  std::exception_ptr wait() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return done_; });
    return error_;
  }

 private:
  void loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return stop_ || pending_; });
      if (!pending_) return;  // stopping, nothing left to run
      std::function<void()> task = std::move(task_);
      pending_ = false;
      lock.unlock();
      std::exception_ptr error;
      try {
        task();
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      error_ = error;
      done_ = true;
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::function<void()> task_;
  bool pending_ = false, done_ = true, stop_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace

struct MultiDeviceBackend::Shared {
  explicit Shared(size_t devices) {
    for (size_t k = 1; k < devices; ++k) threads.push_back(std::make_unique<DeviceThread>());
  }

  // body(k) for every device k at once: device 0 on the calling thread, the others
  // on their own. Waits for all; rethrows the exception of the lowest device
  // that threw.
  void run(size_t devices, const std::function<void(size_t)>& body) {
    for (size_t k = 1; k < devices; ++k) threads[k - 1]->start([&body, k] { body(k); });
    std::exception_ptr first;
    try {
      body(0);
    } catch (...) {
      first = std::current_exception();
    }
    for (size_t k = 1; k < devices; ++k)
      if (std::exception_ptr e = threads[k - 1]->wait(); e && !first) first = e;
    if (first) std::rethrow_exception(first);
  }

  // Device k's thread pool, made at the first feature with `threads` threads in
  // all, shared out among the devices.
  ThreadPool* pool(size_t k, size_t devices, int total_threads) {
    std::lock_guard lock(mutex);
    if (pools.empty()) {
      const int each = std::max(1, total_threads / int(devices));
      for (size_t i = 0; i < devices; ++i) pools.push_back(std::make_unique<ThreadPool>(each));
    }
    return pools[k].get();
  }

  std::vector<std::unique_ptr<DeviceThread>> threads;  // devices 1..n-1
  std::mutex mutex;
  std::vector<std::unique_ptr<ThreadPool>> pools;
};

namespace {

class MultiFeature final : public Feature {
 public:
  MultiFeature(std::shared_ptr<MultiDeviceBackend::Shared> shared,
               std::vector<std::unique_ptr<Feature>> parts)
      : shared_(std::move(shared)), parts_(std::move(parts)) {
    for (const auto& part : parts_) {
      if (part->outputs() != parts_[0]->outputs())
        throw DeviceError(fmt::format("the devices disagree on the outputs of a feature: {} vs {}",
                                      fmt::join(parts_[0]->outputs(), ","),
                                      fmt::join(part->outputs(), ",")));
      batch_ = std::max(batch_, part->batch_frames());
    }
  }

  const std::vector<std::string>& outputs() const override { return parts_[0]->outputs(); }

  // A full batch for every device.
  int batch_frames() const override { return batch_ * int(parts_.size()); }

  void extract(const Picture& ref, const Picture& dist, std::span<double> out) override {
    parts_[0]->extract(ref, dist, out);
  }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    const size_t n = frames.size(), devices = parts_.size(), values = outputs().size();
    if (n == 0) return;
    shared_->run(devices, [&](size_t k) {
      const size_t first = share_start(n, devices, k), end = share_start(n, devices, k + 1);
      if (first == end) return;
      parts_[k]->extract_batch(frames.subspan(first, end - first),
                               out.subspan(first * values, (end - first) * values));
    });
  }

  // The parts' integer states added up, turned into values once.
  std::vector<std::pair<std::string, double>> aggregates() const override {
    const std::vector<AggregateWord> total = aggregate_state();
    if (total.empty()) return {};
    return parts_[0]->aggregates_of(total);
  }

  std::vector<AggregateWord> aggregate_state() const override {
    std::vector<AggregateWord> total;
    for (const auto& part : parts_) {
      std::vector<AggregateWord> state = part->aggregate_state();
      if (state.empty()) {
        if (!part->aggregates().empty())
          throw DeviceError(fmt::format(
              "feature {}: its aggregates cannot be combined over several devices",
              fmt::join(outputs(), ",")));
        continue;
      }
      if (total.empty()) {
        total = std::move(state);
      } else {
        if (state.size() != total.size())
          throw DeviceError("the devices disagree on the shape of a feature's aggregate state");
        for (size_t i = 0; i < total.size(); ++i) total[i] += state[i];
      }
    }
    return total;
  }

  std::vector<std::pair<std::string, double>> aggregates_of(
      std::span<const AggregateWord> state) const override {
    return parts_[0]->aggregates_of(state);
  }

 private:
  std::shared_ptr<MultiDeviceBackend::Shared> shared_;  // outlives the parts
  std::vector<std::unique_ptr<Feature>> parts_;         // one per device
  int batch_ = 1;
};

}  // namespace

MultiDeviceBackend::MultiDeviceBackend(std::vector<std::shared_ptr<DeviceBackend>> devices)
    : devices_(std::move(devices)) {
  if (devices_.empty()) throw UsageError("no devices to score on");
  for (const auto& d : devices_)
    if (!d) throw UsageError("a null device in a device list");
  shared_ = std::make_shared<Shared>(devices_.size());
}

MultiDeviceBackend::~MultiDeviceBackend() = default;

std::string MultiDeviceBackend::description() const {
  std::vector<std::string> names;
  for (const auto& d : devices_) names.push_back(d->description());
  return fmt::format("{} devices: {}", devices_.size(), fmt::join(names, "; "));
}

std::unique_ptr<Feature> MultiDeviceBackend::make_feature(const FeatureSpec& spec,
                                                          const FeatureContext& ctx) {
  const int threads = ctx.pool ? ctx.pool->size() : 1;
  std::vector<std::unique_ptr<Feature>> parts;
  for (size_t k = 0; k < devices_.size(); ++k) {
    FeatureContext part = ctx;
    part.device = devices_[k];
    part.pool = shared_->pool(k, devices_.size(), threads);
    std::unique_ptr<Feature> feature = devices_[k]->make_feature(spec, part);
    if (!feature) return nullptr;
    parts.push_back(std::move(feature));
  }
  return std::make_unique<MultiFeature>(shared_, std::move(parts));
}

}  // namespace exactvq
