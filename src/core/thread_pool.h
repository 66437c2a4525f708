// A fixed set of worker threads that run index-parallel loops. Loops may be
// started from several threads at once and from inside a loop's body (a run's
// features score a batch side by side, each feature's engine a loop of its
// frames): every ready task of every loop is shared by all the threads, and a
// caller whose own tasks are all handed out runs other loops' tasks rather than
// wait, so no thread idles while any task is ready.
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
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
  // all are done. The first exception thrown by a body is rethrown here (the
  // loop's tasks not yet started are dropped). Safe to call from any thread,
  // including from inside a body.
  void parallel_for(int count, const std::function<void(int)>& body);
  // parallel_for, from a thread that feeds the pool rather than scores: it runs
  // only this loop's tasks (the workers join in when free), and then sleeps
  // until they end, never taking another loop's task.
  void parallel_for_own(int count, const std::function<void(int)>& body);

  // Queues task() to run on a worker, or on a thread in parallel_for or
  // help_until, after the tasks ready before it; returns at once. The task must
  // not throw.
  void post(std::function<void()> task);
  // Runs ready tasks until done() holds, sleeping when there are none. done() is
  // read with the pool's lock held: whatever makes it true calls notify() after.
  void help_until(const std::function<bool()>& done);
  // Sleeps until done() holds, running no task (a thread that feeds the pool
  // and must answer at once when its next batch comes); done() as above.
  void wait_until(const std::function<bool()>& done);
  void notify();

 private:
  // One parallel_for call, on its caller's stack, or one post()ed task, on the
  // heap (deleted once run).
  struct Loop {
    const std::function<void(int)>* body = nullptr;
    int count = 0;
    int next = 0;        // the next index to hand out
    int unfinished = 0;  // handed out or not, not yet finished
    std::exception_ptr error;
    std::unique_ptr<std::function<void()>> posted;  // the posted task
    const char* name = nullptr;  // its tasks' name in a run trace: the maker's span
  };

  void work();
  // parallel_for (own_tasks_only: parallel_for_own).
  void loop_over(int count, const std::function<void(int)>& body, bool own_tasks_only);
  // Runs task `i` of `loop` with the lock released; the lock is held again on return.
  void run(Loop& loop, int i, std::unique_lock<std::mutex>& lock) noexcept;
  // The next task of the oldest loop with one left; false when there is none.
  bool take(Loop*& loop, int& i);
  // Runs the oldest ready tasks, or sleeps, until done() holds (the lock held).
  void help(std::unique_lock<std::mutex>& lock, const std::function<bool()>& done);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  // Signalled when tasks become ready, when a loop finishes, and on shutdown.
  std::condition_variable changed_;
  std::deque<Loop*> ready_;  // loops with tasks not yet handed out, oldest first
  bool stop_ = false;
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
