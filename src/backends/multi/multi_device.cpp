#include "backends/multi/multi_device.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq {

// One host thread that runs one task at a time for its device.
class DeviceShares::Thread {
 public:
  Thread() : thread_([this] { loop(); }) {}
  ~Thread() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  Thread(const Thread&) = delete;
  Thread& operator=(const Thread&) = delete;

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

DeviceShares::DeviceShares(size_t devices) : devices_(devices) {
  for (size_t k = 1; k < devices; ++k) threads_.push_back(std::make_unique<Thread>());
}

DeviceShares::~DeviceShares() = default;

void DeviceShares::run(const std::function<void(size_t)>& body) {
  const size_t devices = devices_;
  for (size_t k = 1; k < devices; ++k) threads_[k - 1]->start([&body, k] { body(k); });
  std::exception_ptr first;
  try {
    body(0);
  } catch (...) {
    first = std::current_exception();
  }
  for (size_t k = 1; k < devices; ++k)
    if (std::exception_ptr e = threads_[k - 1]->wait(); e && !first) first = e;
  if (first) std::rethrow_exception(first);
}

ThreadPool* DeviceShares::pool(size_t k, int total_threads) {
  const size_t devices = devices_;
  std::lock_guard lock(mutex_);
  if (pools_.empty()) {
    const int each = std::max(1, total_threads / int(devices));
    for (size_t i = 0; i < devices; ++i) pools_.push_back(std::make_unique<ThreadPool>(each));
  }
  return pools_[k].get();
}

MultiDevice::MultiDevice(std::vector<std::shared_ptr<Device>> devices)
    : devices_(std::move(devices)) {
  if (devices_.empty()) throw UsageError("no devices to score on");
  for (const auto& d : devices_)
    if (!d) throw UsageError("a null device in a device list");
  shares_ = std::make_shared<DeviceShares>(devices_.size());
}

std::string MultiDevice::description() const {
  std::vector<std::string> names;
  for (const auto& d : devices_) names.push_back(d->description());
  return fmt::format("{} devices: {}", devices_.size(), fmt::join(names, "; "));
}

}  // namespace exactvq
