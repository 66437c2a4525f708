#include "core/thread_pool.h"

#include <utility>

namespace exactvq {

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::run_tasks() {
  std::unique_lock lock(mutex_);
  while (next_ < count_) {
    const int i = next_++;
    ++running_;
    lock.unlock();
    try {
      (*body_)(i);
    } catch (...) {
      lock.lock();
      if (!error_) error_ = std::current_exception();
      next_ = count_;  // stop handing out work
      lock.unlock();
    }
    lock.lock();
    --running_;
  }
  if (running_ == 0) done_.notify_all();
}

void ThreadPool::work() {
  unsigned seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    run_tasks();
  }
}

void ThreadPool::parallel_for(int count, const std::function<void(int)>& body) {
  if (count <= 0) return;
  if (workers_.empty() || count == 1) {
    for (int i = 0; i < count; ++i) body(i);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    body_ = &body;
    count_ = count;
    next_ = 0;
    running_ = 0;
    error_ = nullptr;
    ++generation_;
  }
  wake_.notify_all();
  run_tasks();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return next_ >= count_ && running_ == 0; });
  body_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

}  // namespace exactvq
