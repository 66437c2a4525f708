// A fixed set of worker threads that run index-parallel loops.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace exactvq {

class ThreadPool {
 public:
  // threads <= 1 runs everything on the calling thread.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Runs body(i) for i in [0, count), on the workers and the caller; returns when
  // all are done. The first exception thrown by a body is rethrown here.
  void parallel_for(int count, const std::function<void(int)>& body);

 private:
  void work();
  void run_tasks();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* body_ = nullptr;
  int count_ = 0, next_ = 0, running_ = 0;
  unsigned generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

// body(i) for i in [0, count) on `pool`, or in order on the caller when it is null.
inline void parallel_for(ThreadPool* pool, int count, const std::function<void(int)>& body) {
  if (pool) {
    pool->parallel_for(count, body);
    return;
  }
  for (int i = 0; i < count; ++i) body(i);
}

}  // namespace exactvq
